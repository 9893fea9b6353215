package membound.calibrator.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.calibrator.Fixtures;
import membound.vocabulary.BadInputException;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.RunProvenance;

class ProfileStoreTest {

    static Profile example() {
        return ProfileJson.read(Fixtures.exampleProfile());
    }

    static Profile at(Profile profile, String createdUtc) {
        RunProvenance p = profile.provenance();
        return profile.withProvenance(RunProvenance.of(p.memboundVersion(), p.jmhVersion(), p.settings(),
                p.commandLine(), Instant.parse(createdUtc), null));
    }

    @Test
    void shouldNameProfilesByHostAndUtcTimeAndNeverOverwrite(@TempDir Path dir) throws IOException {
        ProfileStore store = new ProfileStore(dir);
        Profile profile = example();
        Path first = store.save(profile);
        assertEquals("spark-example-20251129T120000Z.json", first.getFileName().toString());
        assertArrayEquals(ProfileJson.toBytes(profile), Files.readAllBytes(first));
        byte[] before = Files.readAllBytes(first);
        Path second = store.save(profile);
        assertEquals("spark-example-20251129T120000Z-2.json", second.getFileName().toString());
        assertArrayEquals(before, Files.readAllBytes(first), "the earlier profile is untouched");
        assertEquals(List.of(first, second), store.list());
    }

    @Test
    void shouldKeepTheRawJmhResultBesideTheProfile(@TempDir Path dir) throws IOException {
        Path saved = new ProfileStore(dir).save(example(), "[]".getBytes(StandardCharsets.UTF_8));
        Path raw = dir.resolve("spark-example-20251129T120000Z.jmh.json");
        assertEquals("[]", Files.readString(raw));
        assertEquals(raw.getFileName().toString(), ProfileJson.read(saved).provenance().rawResultFile());
        assertEquals(List.of(saved), new ProfileStore(dir).list(), "the raw result is not a profile");
    }

    @Test
    void shouldResolveLatestByTheTimestampInTheName(@TempDir Path dir) throws IOException {
        ProfileStore store = new ProfileStore(dir);
        Path old = store.save(at(example(), "2025-01-01T00:00:00Z"));
        Path newer = store.save(at(example(), "2025-06-01T00:00:00Z"));
        Profile other = example();
        other = new Profile(new membound.profile.Host("node-2", other.host().cpu(), other.host().caches(),
                other.host().memoryBytes(), other.host().numaNodes(), other.host().os(), other.host().jdk(),
                other.host().vectorBitWidth(), other.host().platform()), other.nominal(), other.devices(),
                other.links(), other.efficiency(), other.quality(), other.provenance());
        Path otherHost = store.save(at(other, "2025-03-01T00:00:00Z"));
        Files.writeString(dir.resolve("notes.json"), "{}");
        Files.writeString(dir.resolve(".spark-example-20990101T000000Z.json.tmp-abc"), "{");
        assertEquals(newer, store.resolve("latest"));
        assertEquals(newer, store.resolve("latest:spark-example"));
        assertEquals(otherHost, store.resolve("latest:node-2"));
        assertEquals(old, store.resolve(old.toString()));
        assertEquals("profile latest:node-9 must exist: directory=" + dir + ", profiles=3, host=node-9"
                        + " (membound calibrate writes one)",
                assertThrows(BadInputException.class, () -> store.resolve("latest:node-9")).getMessage());
        assertEquals("profile must be an existing file, latest or latest:<host>: profile=nope.json",
                assertThrows(BadInputException.class, () -> store.resolve("nope.json")).getMessage());
        assertThrows(BadInputException.class, () -> new ProfileStore(dir.resolve("empty")).resolve("latest"));
    }

    @Test
    void shouldRefuseToOverwriteAnExplicitOutput(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("mine.json");
        Files.writeString(target, "keep");
        assertThrows(BadInputException.class, () -> ProfileStore.saveAs(example(), target));
        assertEquals("keep", Files.readString(target));
    }

    @Test
    void shouldLeaveNoProfileWhenKilledBeforeTheNameIsGiven(@TempDir Path dir) throws Exception {
        Path earlier = new ProfileStore(dir).save(at(example(), "2020-01-01T00:00:00Z"));
        byte[] earlierBytes = Files.readAllBytes(earlier);
        Process child = writer(dir, "pause");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertEquals("temporary-written", out.readLine(), "the writer must reach the pause");
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(List.of(earlier), new ProfileStore(dir).list(), "no new profile, partial or whole");
        assertArrayEquals(earlierBytes, Files.readAllBytes(earlier));
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(2, names.size(), "the earlier profile and one hidden temporary: " + names);
            assertTrue(names.get(0).startsWith(".spark-example-20251129T120000Z.json.tmp-"), names.toString());
        }
    }

    @Test
    void shouldLeaveOnlyWholeProfilesWhenKilledAtRandomPoints(@TempDir Path dir) throws Exception {
        Path earlier = new ProfileStore(dir).save(at(example(), "2020-01-01T00:00:00Z"));
        byte[] earlierBytes = Files.readAllBytes(earlier);
        Random random = new Random(42);
        for (int run = 0; run < 2; run++) {
            Process child = writer(dir, "loop");
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                assertEquals("looping", out.readLine());
                Thread.sleep(50 + random.nextInt(250));
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            }
            List<Path> profiles = new ProfileStore(dir).list();
            for (Path p : profiles) {
                ProfileJson.read(p); // every named profile is whole: it parses
            }
            assertArrayEquals(earlierBytes, Files.readAllBytes(earlier));
        }
        assertFalse(new ProfileStore(dir).list().isEmpty());
    }

    private static Process writer(Path dir, String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), StoreWriterMain.class.getName(), dir.toString(), mode,
                Fixtures.exampleProfile().toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
