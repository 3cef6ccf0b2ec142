module example.com/provedep

go 1.26.0
