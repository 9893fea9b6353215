package membound.hardware.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Over a written {@code /proc}, with a recorded process tree: the live one is never read. */
class LoadMonitorTest {

    private static final long PID = 4242;

    @TempDir
    Path proc;

    /** Written aside and moved in whole, so that the sampler thread never reads half a file. */
    private static void replace(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Path aside = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(aside, text, StandardCharsets.UTF_8);
        Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The machine's line: user nice system idle iowait irq softirq steal guest guest_nice. */
    private void machine(long user, long system, long idle) throws IOException {
        replace(proc.resolve("stat"), "cpu  " + user + " 0 " + system + " " + idle + " 100 0 0 0 0 0\n"
                + "cpu0 1 0 1 1 0 0 0 0 0 0\nintr 0\n");
    }

    /** This process: utime and stime are fields 14 and 15, after a comm with a space in it. */
    private void own(long utime, long stime) throws IOException {
        replace(proc.resolve(PID + "/stat"), PID + " (java main) S 1 " + PID + " " + PID + " 0 -1 4194304 100 0 0 0 "
                + utime + " " + stime + " 0 0 20 0 30 0 12345 1000000 500\n");
    }

    @Test
    void shouldCountTheBusyTicksThisProcessTreeDidNotTakeAsOtherCpus() throws IOException {
        machine(1000, 500, 8000);
        own(60, 40);
        LoadMonitor monitor = LoadMonitor.start(proc, 4, () -> List.of(PID)).orElseThrow();
        // 1300 ticks pass, 600 of them busy, 200 of those this process's: 400 / 1300 of 4 cpus went elsewhere.
        machine(1400, 700, 8700);
        own(200, 100);
        monitor.close();

        assertEquals(400.0 / 1300 * 4, monitor.otherCpusOverall(), 1e-9);
        assertTrue(monitor.otherCpusOverall() > LoadMonitor.OTHER_CPUS_THRESHOLD);
    }

    @Test
    void shouldNotStartWhereProcStatCannotBeRead() {
        assertTrue(LoadMonitor.start(proc.resolve("absent"), 4, () -> List.of(PID)).isEmpty());
    }
}
