package hashsum_test

import (
	"fmt"

	"github.com/hashalloc/hashalloc/runtime/hashsum"
)

func ExampleSHA256() {
	header := []byte("hello, ")
	body := []byte("world")
	// Same digest as sha256.Sum256(append(header, body...)), without the append.
	fmt.Printf("%x\n", hashsum.SHA256(header, body))
	// Output:
	// 09ca7e4eaa6e8ae9c7d261167129184883644d07dfba7cbfbc4c8a2e08360d5b
}
