module example.com/costfacts

go 1.22
