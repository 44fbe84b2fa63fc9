# ctest properties for test_ptx_errors (PTX front-end)
set(TEST_LABELS "unit;ptx")
