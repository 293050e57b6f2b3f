::again:: goto again
