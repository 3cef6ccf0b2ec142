package reserved

// sha256Parts2 is declared on plan9 only.
var sha256Parts2 = 2
