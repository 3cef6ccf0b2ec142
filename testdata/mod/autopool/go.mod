module example.com/autopool

go 1.26.0
