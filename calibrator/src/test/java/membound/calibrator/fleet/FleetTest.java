package membound.calibrator.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.calibrator.Fixtures;
import membound.hardware.BadInputException;
import membound.profile.Host;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.RunProvenance;

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
    void shouldParseThresholds() {
        assertEquals(0.1, Fleet.parseThreshold("10%"), 1e-12);
        assertEquals(0.075, Fleet.parseThreshold("0.075"), 1e-12);
        assertThrows(BadInputException.class, () -> Fleet.parseThreshold("0%"));
        assertThrows(BadInputException.class, () -> Fleet.parseThreshold("ten"));
    }
}
