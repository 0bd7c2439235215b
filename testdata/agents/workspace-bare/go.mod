module example.invalid/demo

go 1.26
