# ctest properties for test_ptx_parse (PTX front-end)
set(TEST_LABELS "unit;ptx")
