package membound.vocabulary.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoversTest {

    @TempDir
    Path dir;

    /** A process number that no process has: one that ran and exited. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test
    void shouldRemoveATemporaryWhoseWriterIsGoneOnTheNextWrite() throws Exception {
        Path dead = Files.writeString(dir.resolve(".a.json.tmp-" + deadPid() + "-0123456789ab"), "{\"whole\": true}");
        Path live = Files.writeString(dir.resolve(".b.json.tmp-" + ProcessHandle.current().pid() + "-0123456789ab"), "{");
        Path legacyOld = Files.writeString(dir.resolve(".c.json.tmp-abcdef"), "{");
        Files.setLastModifiedTime(legacyOld, FileTime.from(Instant.now().minus(Leftovers.UNOWNED_AGE).minusSeconds(60)));
        Path legacyNew = Files.writeString(dir.resolve(".d.json.tmp-abcdef"), "{");
        Path mine = Files.writeString(dir.resolve("mine.json.tmp-1-2"), "a user's file, not hidden: never touched");

        AtomicFiles.writeNew(dir.resolve("new.json"), "{}".getBytes());

        assertFalse(Files.exists(dead), "a killed writer's complete temporary is removed");
        assertFalse(Files.exists(legacyOld), "an old temporary without a process number is removed");
        assertTrue(Files.exists(live), "a temporary of a running writer is another publish in progress");
        assertTrue(Files.exists(legacyNew), "a recent temporary without a process number may be in progress");
        assertTrue(Files.exists(mine));
        assertEquals("{}", Files.readString(dir.resolve("new.json")));
    }

    @Test
    void shouldRemoveAReportStagingDirectoryWithItsFiles() throws Exception {
        Path staging = Files.createDirectories(dir.resolve(".rep.partial-1a2b-" + deadPid()));
        Files.writeString(staging.resolve("index.html"), "<html>");
        Leftovers.remove(dir, java.util.regex.Pattern.compile("\\..+\\.partial-[0-9a-f]+-(?<pid>[0-9]+)"));
        assertFalse(Files.exists(staging));
    }

    @Test
    void shouldCheckWritabilityLeavingNothingBehind() throws IOException {
        AtomicFiles.checkWritable(dir.resolve("not/yet/there"));
        try (Stream<Path> entries = Files.list(dir)) {
            assertEquals(List.of(), entries.toList(), "the probe is removed and nothing is created");
        }
        Path file = Files.writeString(dir.resolve("file"), "x");
        IOException underAFile = assertThrows(IOException.class, () -> AtomicFiles.checkWritable(file.resolve("p")));
        assertTrue(Leftovers.problem(underAFile).equalsIgnoreCase("not a directory"), Leftovers.problem(underAFile));
    }
}
