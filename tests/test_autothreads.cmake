# test_autothreads: sync/ unit test (the default thread count). Labelled "sync" so CI runs it under TSan too.
set(TEST_TIMEOUT 60)
set(TEST_LABELS "unit;sync")
