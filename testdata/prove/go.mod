module example.com/prove

go 1.26.0

require example.com/provedep v0.0.0

replace example.com/provedep => ../provedep
