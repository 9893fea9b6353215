package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

class CalibrationLockTest {

    @TempDir
    Path dir;

    @Test
    void shouldNameTheHolderAndWaitForItWhenAsked() throws Exception {
        Path file = dir.resolve("calibration.lock");
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-cp", System.getProperty("java.class.path"), LockHolderMain.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("held", out.readLine());

            BadInputException busy = assertThrows(BadInputException.class,
                    () -> CalibrationLock.acquire(file, false, new PrintWriter(new StringWriter())));
            assertTrue(busy.getMessage().startsWith("calibration lock must be free"), busy.getMessage());
            assertTrue(busy.getMessage().contains("pid=" + holder.pid() + ", since="), busy.getMessage());
            assertTrue(busy.getMessage().endsWith("(wait for it with --wait)"), busy.getMessage());

            StringWriter progress = new StringWriter();
            CompletableFuture<CalibrationLock> waiting = CompletableFuture.supplyAsync(
                    () -> CalibrationLock.acquire(file, true, new PrintWriter(progress, true)));
            for (int i = 0; i < 600 && progress.toString().isEmpty(); i++) {
                Thread.sleep(50); // until the waiter has found the lock taken and said so
            }
            assertTrue(progress.toString().startsWith("waiting for the calibration lock: pid=" + holder.pid()),
                    progress.toString());
            holder.getOutputStream().close(); // the other calibration ends
            try (CalibrationLock lock = waiting.get(60, TimeUnit.SECONDS)) {
                assertTrue(Files.readString(file).startsWith("pid=" + ProcessHandle.current().pid() + ", since="));
            }
            assertEquals("", Files.readString(file), "a released lock names no holder");
        } finally {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldCheckTheJvmBeforeAnythingForks() throws Exception {
        assertTrue(JavaCheck.check(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                >= JavaCheck.MIN_FEATURE);
        for (List<String> bad : List.of(List.of("/bin/ls", "did not report java.specification.version"),
                List.of(dir.toString(), "not an executable file"), List.of(dir.resolve("nosuch").toString(), "no such file"),
                List.of("", "must not be empty"))) {
            BadInputException e = assertThrows(BadInputException.class, () -> JavaCheck.check(bad.get(0)));
            assertTrue(e.getMessage().startsWith("--jvm must") && e.getMessage().contains(bad.get(1)), e.getMessage());
        }
    }
}
