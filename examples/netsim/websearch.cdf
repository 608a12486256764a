# WebSearch flow sizes (DCTCP, SIGCOMM 2010), as the HPCC paper's evaluation
# uses them (the HPCC simulator's traffic_gen/WebSearch_distribution.txt).
# size_bytes cdf_percent
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
