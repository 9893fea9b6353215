package membound.calibrator.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.calibrator.Fixtures;
import membound.profile.Device;
import membound.profile.Host;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.RunProvenance;
import membound.vocabulary.BadInputException;
import membound.vocabulary.MemoryLevel;

class FleetTest {

    static Profile node(String name, String createdUtc) {
        Profile p = ProfileJson.read(Fixtures.exampleProfile());
        Host h = p.host();
        RunProvenance r = p.provenance();
        return new Profile(new Host(name, h.cpu(), h.caches(), h.memoryBytes(), h.numaNodes(), h.os(), h.jdk(),
                h.vectorBitWidth(), h.platform()), p.nominal(), p.devices(), p.links(), p.efficiency(), p.quality(),
                RunProvenance.of(r.memboundVersion(), r.jmhVersion(), r.settings(), r.commandLine(),
                        Instant.parse(createdUtc), null));
    }

    /** The node's CPU DRAM ceilings times {@code factor}: a node with a misconfigured DIMM. */
    static Profile slower(Profile p, double factor) {
        Device cpu = p.device("cpu").orElseThrow();
        List<LevelCeiling> levels = new ArrayList<>();
        for (LevelCeiling c : cpu.levels()) {
            levels.add(c.level() != MemoryLevel.DRAM ? c : new LevelCeiling(c.level(), c.access(),
                    c.bytesPerSecond() * factor, c.statistic(), c.bandwidthId(), c.provenance()));
        }
        return p.withDevice(cpu.withLevels(levels));
    }

    static Profile withSettings(Profile p, String jmhVersion, Map<String, String> changes) {
        RunProvenance r = p.provenance();
        Map<String, String> settings = new java.util.TreeMap<>(r.settings());
        settings.putAll(changes);
        return p.withProvenance(RunProvenance.of(r.memboundVersion(), jmhVersion, settings, r.commandLine(),
                r.created(), null));
    }

    /** Four nodes as the example, and node-5 with its DRAM ceilings times {@code factor}. */
    static List<Fleet.Member> fourAndOne(double factor) {
        List<Fleet.Member> members = new ArrayList<>();
        for (int n = 1; n <= 5; n++) {
            Profile p = node("node-" + n, "2025-01-01T00:00:00Z");
            members.add(new Fleet.Member(Path.of("node-" + n + ".json"), n == 5 ? slower(p, factor) : p));
        }
        return members;
    }

    static Fleet.FleetFigure figure(Fleet fleet, String key) {
        return fleet.figures().stream().filter(f -> f.key().equals(key)).findFirst().orElseThrow();
    }

    @Test
    void shouldNameANodeMoreThanTheThresholdBelowTheMedianAndNoOther() {
        Fleet fleet = Fleet.of("d", fourAndOne(0.85), Fleet.DEFAULT_THRESHOLD, false);
        Fleet.FleetFigure triad = figure(fleet, "cpu/ceiling/DRAM/triad");
        assertEquals(5, triad.nodes());
        assertEquals(triad.max(), triad.median(), "four of five nodes are at the median");
        assertEquals(0.85 * triad.median(), triad.min(), 1);
        assertEquals(0.15, triad.spread(), 1e-9);
        assertEquals(List.of("node-5"), triad.outliers().stream().map(Fleet.Outlier::node).toList());
        assertEquals(-0.15, triad.outliers().get(0).relativeToMedian(), 1e-9);
        assertEquals(List.of("node-5"), fleet.standouts().stream().map(Fleet.Standout::node).toList());
        assertTrue(figure(fleet, "cpu/ceiling/L1/triad").outliers().isEmpty(), "its caches are as fast as the others'");
    }

    @Test
    void shouldNotNameANodeWithinTheThreshold() {
        assertTrue(Fleet.of("d", fourAndOne(0.91), Fleet.DEFAULT_THRESHOLD, false).standouts().isEmpty(),
                "9% below the median is within the default 10%");
        assertEquals(List.of("node-5"), Fleet.of("d", fourAndOne(0.91), 0.05, false).standouts().stream()
                .map(Fleet.Standout::node).toList(), "but beyond a 5% threshold");
    }

    @Test
    void shouldRefuseProfilesOfAnotherModeOrJmhVersionNamingTheFiles() {
        List<Fleet.Member> members = new ArrayList<>(fourAndOne(1.0));
        Profile other = withSettings(node("node-6", "2025-01-01T00:00:00Z"), "1.36", Map.of("mode", "quick"));
        members.add(new Fleet.Member(Path.of("node-6.json"), other));
        BadInputException e = assertThrows(BadInputException.class, () -> Fleet.of("d", members, 0.1, false));
        assertTrue(e.getMessage().startsWith("fleet profiles must share measurement settings, or the spread would be "
                + "the settings' and not the nodes' (pass --mixed-settings to summarize them anyway): "), e.getMessage());
        assertTrue(e.getMessage().contains("jmhVersion differs (1.36: node-6.json / 1.37: node-1.json, node-2.json, "
                + "node-3.json, node-4.json, node-5.json)"), e.getMessage());
        assertTrue(e.getMessage().contains("mode differs (quick: node-6.json / standard: node-1.json"), e.getMessage());

        Fleet mixed = Fleet.of("d", members, 0.1, true);
        assertEquals(6, mixed.nodes().size());
        assertEquals(List.of("jmhVersion", "mode"), List.copyOf(mixed.mixedSettings().keySet()));
        assertTrue(!mixed.settings().containsKey("mode"), "a differing setting is not listed as shared");
    }

    @Test
    void shouldTakeTheMeanOfTheMiddleTwoForAnEvenCount() {
        assertEquals(2.5, Fleet.median(new double[] {1, 2, 3, 4}));
        assertEquals(3, Fleet.median(new double[] {1, 3, 9}));
    }

    @Test
    void shouldCountANodeOnceWithItsNewestProfile() {
        Fleet fleet = Fleet.of("d", List.of(
                new Fleet.Member(Path.of("a-old.json"), node("a", "2025-01-01T00:00:00Z")),
                new Fleet.Member(Path.of("a-new.json"), node("a", "2025-02-01T00:00:00Z")),
                new Fleet.Member(Path.of("b.json"), node("b", "2025-01-01T00:00:00Z"))), 0.1, false);
        assertEquals(List.of("a", "b"), fleet.nodes().stream().map(Fleet.Node::name).toList());
        assertEquals("a-new.json", fleet.nodes().get(0).file());
        assertEquals(List.of("a-old.json (an older profile of a)"), fleet.skipped());
        assertTrue(fleet.standouts().isEmpty(), "identical nodes: nobody stands out");
        assertTrue(fleet.figures().stream().allMatch(f -> f.spread() == 0));
    }

    @Test
    void shouldReadProfilesRenamedPerNodeByWhatTheySayAndPassOverOtherJson(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir.resolve("rack1"));
        java.nio.file.Files.write(dir.resolve("rack1/node-a.json"), ProfileJson.toBytes(node("a", "2025-01-01T00:00:00Z")));
        java.nio.file.Files.write(dir.resolve("b-profile.json"), ProfileJson.toBytes(node("b", "2025-01-02T00:00:00Z")));
        java.nio.file.Files.writeString(dir.resolve("fleet.json"), "{\"nodes\": []}\n");
        java.nio.file.Files.writeString(dir.resolve("b-profile.jmh.json"), "[]\n");
        List<Fleet.Member> members = Fleet.read(dir);
        assertEquals(List.of("a", "b"), members.stream().map(m -> m.profile().host().hostname()).sorted().toList());

        java.nio.file.Files.writeString(dir.resolve("broken.json"), "{\"schema\": \"membound-profile\", \"schemaVersion\": 2}");
        membound.vocabulary.BadInputException broken = org.junit.jupiter.api.Assertions.assertThrows(
                membound.vocabulary.BadInputException.class, () -> Fleet.read(dir));
        assertTrue(broken.getMessage().contains("broken.json"), broken.getMessage());
    }

    @Test
    void shouldRefuseADirectoryWithoutProfiles(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        java.nio.file.Files.writeString(dir.resolve("notes.json"), "{}\n");
        membound.vocabulary.BadInputException none = org.junit.jupiter.api.Assertions.assertThrows(
                membound.vocabulary.BadInputException.class, () -> Fleet.read(dir));
        assertTrue(none.getMessage().startsWith("fleet directory must contain membound profiles"), none.getMessage());
    }

    @Test
    void shouldParseThresholds() {
        assertEquals(0.1, Fleet.parseThreshold("10%"), 1e-12);
        assertEquals(0.075, Fleet.parseThreshold("0.075"), 1e-12);
        assertThrows(BadInputException.class, () -> Fleet.parseThreshold("0%"));
        assertThrows(BadInputException.class, () -> Fleet.parseThreshold("ten"));
    }
}
