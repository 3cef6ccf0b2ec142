module example.com/goversioninline

go 1.16
