# The test suite in four runs of the test binary; scripts/test.sh and scripts/sanitizers.sh source
# this file and call `test_runs` with the options every `swift test` gets (a scratch path, a
# sanitizer, suites to skip). Why four processes, not one:
#
# 1. Everything but the runs below: the units of every module, and whole sessions run in this
#    process by the session drivers over the in-memory radio and over sim (MdocPresentationTests).
# 2. The program tests (MdocCLITests but the suites of run 3), with DBusConnectionTests, whose
#    private buses and sockets stay away from the hostile peers' timing. The program tests wait
#    synchronously for the programs they start, each wait holding a thread of the test process's
#    cooperative pool (two threads on a two-core machine); tests whose peers or timers run on
#    that pool in the same process (the sim and HCI host tests, the hostile peers, the drivers'
#    bounds) were starved for tens of seconds when both ran side by side on a loaded machine.
# 3. The hostile peers: the link fault and link behaviour tests, which run the session drivers in
#    this process against hostile peers over sim and over hci:tcp with Bumble, and the program
#    tests whose hostile peers run in this process and which await their programs (the hostile
#    programs' tests, resource bounds, cloned credentials, and the exit code tests, one of whose
#    cases is a cloned credential's hostile holder). Over hci each of those tests starts three
#    Bumble controllers, tens of Python processes at once: beside run 1 they held the machine long
#    enough for the LE host's and the sim link's own short bounds there to run out.
# 4. DescriptorHygieneTests alone: they count every descriptor of the process.
source scripts/test-peers-path.sh
hostile_driver_suites='MdocPresentationTests\.(LinkFaultTests|LinkBehaviourTests)'
hostile_program_suites='MdocCLITests\.(HostileProgramTests|ResourceBoundsTests|ClonedCredentialTests|ExitCodeTests)'
test_runs() {
    swift test --skip-build "$@" --skip MdocCLITests --skip DBusConnectionTests --skip DescriptorHygieneTests \
        --skip "$hostile_driver_suites"
    swift test --skip-build "$@" --filter MdocCLITests --filter DBusConnectionTests --skip "$hostile_program_suites"
    swift test --skip-build "$@" --filter "$hostile_driver_suites" --filter "$hostile_program_suites"
    swift test --skip-build "$@" --filter DescriptorHygieneTests
}
