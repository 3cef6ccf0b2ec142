// Package testsflag checks that -tests analyzes _test.go files.
package testsflag

import "bytes"

var src = bytes.NewReader(nil)
