module example.com/goversion

go 1.16
