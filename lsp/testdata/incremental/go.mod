module example.com/incremental

go 1.26.0
