# ctest properties for test_ptx_analysis (PTX front-end)
set(TEST_LABELS "unit;ptx")
