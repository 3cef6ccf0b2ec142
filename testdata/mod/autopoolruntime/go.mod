module example.com/autopoolruntime

go 1.26.0
