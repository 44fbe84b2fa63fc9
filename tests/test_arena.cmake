# test_arena: sync/ unit test. Labelled "sync" so CI can run `ctest -L sync` under TSan.
set(TEST_TIMEOUT 60)
set(TEST_LABELS "unit;sync")
