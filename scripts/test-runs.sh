# The test suite in two runs of the test binary; scripts/test.sh and scripts/sanitizers.sh source
# this file and call `test_runs` with the options every `swift test` gets (a scratch path, a
# sanitizer, suites to skip).
#
# 1. Everything but the run below: the units of every module; whole sessions run in this process
#    by the session drivers over the in-memory radio, over sim and over hci:tcp with Bumble
#    (MdocPresentationTests), with hostile peers among them; and the program tests
#    (MdocCLITests), whose waits for the programs they start hold no thread of the cooperative
#    pool (BackgroundProgram). At most `test_width` test cases run at once
#    (SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH, Swift Testing 6.3). Unbounded, every test
#    starts at once: the program tests and the hci link tests start hundreds of processes (each
#    hci test three Bumble controllers, tens of Python processes), and on a two-core machine the
#    peers and timers of the in-process tests then waited long enough for the LE host's, the sim
#    link's and the GATT client's own bounds to run out. Sixteen at once passed every run on a
#    two-core machine with a from-scratch build of the package beside it (load 10-12): the suite
#    in 85-109 s, under ThreadSanitizer in 204 s, under AddressSanitizer in 213 s. With lighter
#    work beside (load 1-8), eight at once took 256 s under ThreadSanitizer and 200 s under
#    AddressSanitizer, sixteen 171 s and 137 s, and the suite 58-64 s (80 s at eight, quiet).
#    Most test cases spend their time waiting on a peer, a program or a bound, not on a core.
# 2. DescriptorHygieneTests alone: they count every descriptor of the process, which the other
#    tests' sockets, pipes and child processes change while they run.
source scripts/test-peers-path.sh
test_width=16
test_runs() {
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$test_width swift test --skip-build "$@" --skip DescriptorHygieneTests
    swift test --skip-build "$@" --filter DescriptorHygieneTests
}
