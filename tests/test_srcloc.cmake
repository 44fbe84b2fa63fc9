# ctest properties for test_srcloc (PTX line information, fault messages)
set(TEST_LABELS "unit;ptx")
