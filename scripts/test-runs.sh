# The test suite in four runs of the test binary; scripts/test.sh and scripts/sanitizers.sh source
# this file and call `test_runs` with the options every `swift test` gets (a scratch path, a
# sanitizer, suites to skip). Why four processes, not one:
#
# 1. Everything but the program tests. The program tests (MdocCLITests) wait synchronously for
#    the programs they start, each wait holding a thread of the test process's cooperative pool
#    (two threads on a two-core machine); tests whose peers or timers run on that pool in the same
#    process (the sim and HCI host tests, the hostile peers) were starved for tens of seconds when
#    both ran side by side on a loaded machine.
# 2. The program tests, with DBusConnectionTests, whose private buses and sockets stay away from
#    the hostile peers' timing.
# 3. The link fault, link behaviour, resource bound, hostile peer and cloned credential tests, and
#    the exit code tests, one of whose cases is a cloned credential's hostile holder.
# 4. DescriptorHygieneTests alone: they count every descriptor of the process.
source scripts/test-peers-path.sh
test_runs() {
    swift test --skip-build "$@" --skip MdocCLITests --skip DBusConnectionTests --skip DescriptorHygieneTests
    swift test --skip-build "$@" --filter MdocCLITests --filter DBusConnectionTests --skip LinkFaultTests \
        --skip LinkBehaviourTests --skip ResourceBoundsTests --skip HostilePeerTests --skip ClonedCredentialTests \
        --skip ExitCodeTests
    swift test --skip-build "$@" --filter LinkFaultTests --filter LinkBehaviourTests --filter ResourceBoundsTests \
        --filter HostilePeerTests --filter ClonedCredentialTests --filter ExitCodeTests
    swift test --skip-build "$@" --filter DescriptorHygieneTests
}
