import Foundation
import Testing

/// script/vm-test's choice of accelerator, with a QEMU that stands in for the real one:
/// a `/dev/kvm` that opens while the guest kernel hangs (nested KVM) must give TCG, said
/// with its reason, and a guest that prints nothing must be named as such by drive.py,
/// not as an agent missing after the whole boot timeout.
@Suite struct VMAcceleratorTests {
    /// A stand-in `qemu-system-x86_64` on PATH: `hang` prints nothing and never ends (the
    /// guest kernel stuck at long mode), `boots` writes the kernel's banner to the serial
    /// file, `aborts` dies as QEMU does on a host whose KVM refuses an MSR. Its sleep's
    /// argument is each call's own (`FAKE_SLEEP`): the tests run side by side, and one must
    /// not see another's QEMU as its own left behind.
    static let fakeQEMU = """
        #!/bin/bash
        serial=""; prev=""
        for a in "$@"; do [ "$prev" = "-serial" ] && serial=${a#file:}; prev=$a; done
        echo "$*" >> "$(dirname "$0")/calls"
        case "$FAKE_KVM" in
          hang) exec sleep "$FAKE_SLEEP" ;;
          boots) echo "Linux version 6.1.0-fake (the banner)" > "$serial"; exec sleep "$FAKE_SLEEP" ;;
          aborts) echo "qemu-system-x86_64: kvm_buf_set_msrs: Assertion failed." >&2; kill -ABRT $$ ;;
        esac
        """

    struct Choice { var accel: String; var said: String; var calls: String; var sleep: String }

    func choose(_ mode: String, device: String? = nil, arch: String = "amd64") throws -> Choice {
        let dir = (CLI.temporaryPath("bin") as NSString).deletingLastPathComponent
        let qemu = dir + "/qemu-system-x86_64"
        try Self.fakeQEMU.write(toFile: qemu, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: qemu)
        let kvm = dir + "/kvm"
        FileManager.default.createFile(atPath: kvm, contents: Data())
        // A duration no other test's QEMU sleeps: 3600.<six digits>.
        let sleep = String(format: "3600.%06d", Int.random(in: 0..<1_000_000))
        let script = "me=vm-test; vm_arch=\(arch); . script/vm/image.sh; image=\(dir)/kiosk.img; vm_accel; echo \"ACCEL=$accel\""
        let result = try CLI.run(["bash", "-c", script], environment: [
            "PATH": dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "FAKE_KVM": mode, "FAKE_SLEEP": sleep, "VM_KVM_DEVICE": device ?? kvm, "VM_KVM_PROBE_SECONDS": "2",
        ], through: "/bin/bash")
        #expect(result.status == 0, "\(result.stderr)")
        let accel = result.stdout.split(separator: "\n").first { $0.hasPrefix("ACCEL=") }.map { String($0.dropFirst(6)) } ?? ""
        let calls = (try? String(contentsOfFile: dir + "/calls", encoding: .utf8)) ?? ""
        return Choice(accel: accel, said: result.stdout, calls: calls, sleep: sleep)
    }

    @Test func aKVMThatHangsTheGuestGivesTCGAndSaysWhy() throws {
        let choice = try choose("hang")
        #expect(choice.accel == "-accel tcg -cpu max,avx2=off")
        #expect(choice.said.contains("accelerator: tcg"), "\(choice.said)")
        #expect(choice.said.contains("the guest printed nothing on its console within 2 s"), "\(choice.said)")
        // The probe booted the image's kernel under KVM, with its console on a file…
        #expect(choice.calls.contains("-accel kvm") && choice.calls.contains("kiosk.img.vmlinuz")
                && choice.calls.contains("console=ttyS0"), "\(choice.calls)")
        // …and nothing of it outlives the choice.
        #expect(processes(withArgument: choice.sleep).isEmpty)
    }

    @Test func aKVMWhoseGuestPrintsIsChosen() throws {
        let choice = try choose("boots")
        #expect(choice.accel == "-accel kvm -cpu host")
        #expect(choice.said.contains("the guest kernel printed its first line"), "\(choice.said)")
        #expect(processes(withArgument: choice.sleep).isEmpty)
    }

    @Test func aQEMUThatAbortsUnderKVMGivesTCGWithItsWords() throws {
        let choice = try choose("aborts")
        #expect(choice.accel.hasPrefix("-accel tcg"))
        #expect(choice.said.contains("QEMU exited before the guest printed anything: qemu-system-x86_64: kvm_buf_set_msrs"),
                "\(choice.said)")
    }

    @Test func noKVMDeviceMeansTCGWithoutAProbe() throws {
        let choice = try choose("boots", device: "/nonexistent/kvm")
        #expect(choice.accel.hasPrefix("-accel tcg"))
        #expect(choice.said.contains("no KVM: /nonexistent/kvm is not there"), "\(choice.said)")
        #expect(choice.calls.isEmpty)
    }

    /// An arm64 guest on this amd64 machine: software emulation, said, without a KVM probe
    /// (a KVM that works here runs only amd64 guests).
    @Test func anArm64GuestIsEmulatedWithoutAProbe() throws {
        let choice = try choose("boots", arch: "arm64")
        #expect(choice.accel == "-accel tcg -cpu max,pauth-impdef=on")
        #expect(choice.said.contains("an arm64 guest on this"), "\(choice.said)")
        #expect(choice.calls.isEmpty, "\(choice.calls)")
    }

    /// A QEMU that makes the monitor and command sockets drive.py connects to, answers the
    /// monitor's prompt, writes `FAKE_CONSOLE` (empty if unset) as its console, and never
    /// boots anything; its arguments go to `calls` beside it.
    static let silentQEMU = """
        #!/usr/bin/env python3
        import socket, sys, time, os
        args = sys.argv[1:]
        open(os.path.join(os.path.dirname(sys.argv[0]), "calls"), "a").write(os.path.basename(sys.argv[0]) + " " + " ".join(args) + "\\n")
        def after(flag):
            return [args[i + 1] for i, a in enumerate(args) if a == flag]
        open(after("-serial")[0][len("file:"):], "w").write(os.environ.get("FAKE_CONSOLE", ""))
        mon = after("-monitor")[0][len("unix:"):].split(",")[0]
        ctl = [p for p in after("-chardev")[0].split(",") if p.startswith("path=")][0][5:]
        socks = []
        for path in (mon, ctl):
            s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1); socks.append(s)
        m, _ = socks[0].accept(); m.sendall(b"QEMU monitor\\n(qemu) ")
        c, _ = socks[1].accept()
        m.settimeout(0.5)
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                if b"quit" in m.recv(100): break
            except socket.timeout:
                pass
        """

    /// drive.py on silentQEMU (named as `qemu`) with `args`: its result, and QEMU's arguments.
    func driveSilent(_ qemu: String, _ args: [String], console: String = "", bootTimeout: Int = 300)
        throws -> (result: CLIResult, calls: String, work: String) {
        let dir = (CLI.temporaryPath("drive") as NSString).deletingLastPathComponent
        try Self.silentQEMU.write(toFile: dir + "/" + qemu, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/" + qemu)
        // (`through` takes the first argument as the program's own name.)
        let result = try CLI.run(["env", "python3", "script/vm/drive.py", "--work", dir, "--kernel", "k", "--initrd", "i",
                                  "--disk", "d", "--out", dir, "--console-timeout", "3", "--boot-timeout", "\(bootTimeout)"] + args,
                                 environment: ["PATH": dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                               "FAKE_CONSOLE": console],
                                 through: "/usr/bin/env")
        return (result, (try? String(contentsOfFile: dir + "/calls", encoding: .utf8)) ?? "", dir)
    }

    /// What a TCG guest printed before its kernel stopped for good (2026-12-05, CI).
    static let stalledKernel = """
        [    0.048000] tsc: Unable to calibrate against PIT
        [    0.928579] mtrr: your CPUs had inconsistent MTRRdefType settings

        """

    /// A kernel that stops before its initramfs (the console's kernel lines only, growing
    /// no more) is powered off and booted again, once: two QEMUs, the first one's console
    /// kept, and the second stop fails the boot as any agent that never answers does.
    @Test func aKernelThatStopsIsBootedAgainOnce() throws {
        let (result, calls, work) = try driveSilent("qemu-system-x86_64", ["--kernel-stall", "2"],
                                                    console: Self.stalledKernel, bootTimeout: 12)
        #expect(result.status != 0)
        #expect(calls.split(separator: "\n").count == 2, "\(calls)")
        #expect(result.stdout.contains("the guest's kernel stopped before its initramfs (the console at "
                                       + "'[    0.928579] mtrr: your CPUs had inconsistent MTRRdefType settings' for 2 s): "
                                       + "powered off and booted again, once"), "\(result.stdout)")
        #expect(result.stderr.contains("did not answer within 12 s"), "\(result.stderr)")
        let kept = try String(contentsOfFile: work + "/console-boot1-stalled.log", encoding: .utf8)
        #expect(kept == Self.stalledKernel)
        // Neither QEMU outlives the driver.
        #expect(processes(withArgument: "unix:" + work + "/qmp.sock,server=on,wait=off").isEmpty)
    }

    /// Once the initramfs or systemd has printed, a quiet console is the image's (or the
    /// app's) and is not hidden by a second boot: one QEMU, the boot's own failure.
    @Test func aQuietConsolePastTheKernelIsNotBootedAgain() throws {
        let (result, calls, _) = try driveSilent("qemu-system-x86_64", ["--kernel-stall", "2"],
                                                 console: Self.stalledKernel + "Loading, please wait...\n", bootTimeout: 8)
        #expect(result.status != 0)
        #expect(calls.split(separator: "\n").count == 1, "\(calls)")
        #expect(!result.stdout.contains("booted again"), "\(result.stdout)")
        #expect(result.stderr.contains("did not answer within 8 s; the console's last line: 'Loading, please wait...'"),
                "\(result.stderr)")
    }

    /// drive.py, on a QEMU whose guest prints nothing: it says so after --console-timeout,
    /// long before the boot timeout.
    @Test func aSilentGuestIsNamedByTheDriver() throws {
        let (result, calls, _) = try driveSilent("qemu-system-x86_64", ["--accel", "-accel kvm -cpu host"])
        #expect(calls.hasPrefix("qemu-system-x86_64 -machine q35 "), "\(calls)")
        #expect(calls.contains("isa-serial,chardev=ctl") && calls.contains("console=ttyS0 ") && !calls.contains("vmtest.ctl"), "\(calls)")
        #expect(result.status != 0)
        #expect(result.stderr.contains("the guest printed nothing on its console within 3 s"), "\(result.stderr)")
        #expect(result.stderr.contains("-accel kvm -cpu host"), "\(result.stderr)")
        #expect(!result.stderr.contains("did not answer"), "\(result.stderr)")
    }

    /// --arch arm64: QEMU's virt board, which has no ISA bus: the console on its PL011
    /// (ttyAMA0), the agent's channel a virtio-serial port that the kernel line names.
    @Test func theArm64MachineIsTheVirtBoard() throws {
        let (result, calls, _) = try driveSilent("qemu-system-aarch64", ["--arch", "arm64", "--accel", "-accel tcg -cpu max"])
        #expect(result.status != 0)
        #expect(calls.hasPrefix("qemu-system-aarch64 -machine virt "), "\(calls)")
        #expect(calls.contains("virtserialport,chardev=ctl,name=vmtest.ctl") && !calls.contains("isa-serial"), "\(calls)")
        #expect(calls.contains("console=ttyAMA0 ") && calls.contains("vmtest.ctl=/dev/virtio-ports/vmtest.ctl"), "\(calls)")
        #expect(calls.contains("virtio-gpu-pci,xres=720,yres=1280"), "\(calls)")
        #expect(result.stderr.contains("the guest printed nothing on its console within 3 s"), "\(result.stderr)")
    }
}
