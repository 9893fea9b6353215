package membound.calibrator.run;

import java.io.PrintWriter;
import java.nio.file.Path;

/** Holds the calibration lock of {@code args[0]} until its standard input closes: another calibration, for tests. */
public final class LockHolderMain {

    private LockHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        try (CalibrationLock lock = CalibrationLock.acquire(Path.of(args[0]), false, new PrintWriter(System.err))) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our stdin
            }
        }
    }
}
