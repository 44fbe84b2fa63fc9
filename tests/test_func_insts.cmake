# ctest properties for test_func_insts (functional executor, PTX instruction semantics)
set(TEST_TIMEOUT 300)
set(TEST_LABELS "unit;ptx")
