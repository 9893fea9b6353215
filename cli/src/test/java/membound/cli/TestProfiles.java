package membound.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Host;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.RunProvenance;
import membound.vocabulary.MemoryLevel;

/** Synthetic profiles made from the example: other host names, slower memory, other settings. */
final class TestProfiles {

    private TestProfiles() {
    }

    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("tests must run inside the repository");
    }

    static Path example() {
        return root().resolve("results/profiles/examples/dgx-spark-example.json");
    }

    static Path localFixture(String name) {
        return root().resolve("calibrator/src/test/resources/fixtures").resolve(name);
    }

    static Profile exampleProfile() {
        return ProfileJson.read(example());
    }

    static Profile withHost(Profile p, String hostname) {
        Host h = p.host();
        return new Profile(new Host(hostname, h.cpu(), h.caches(), h.memoryBytes(), h.numaNodes(), h.os(), h.jdk(),
                h.vectorBitWidth(), h.platform()), p.nominal(), p.devices(), p.links(), p.efficiency(), p.quality(),
                p.provenance());
    }

    static Profile withoutPlatform(Profile p) {
        Host h = p.host();
        return new Profile(new Host(h.hostname(), h.cpu(), h.caches(), h.memoryBytes(), h.numaNodes(), h.os(), h.jdk(),
                h.vectorBitWidth(), null), p.nominal(), p.devices(), p.links(), p.efficiency(), p.quality(),
                p.provenance());
    }

    static Profile withSettings(Profile p, Map<String, String> changes, String createdUtc) {
        RunProvenance r = p.provenance();
        Map<String, String> settings = new TreeMap<>(r.settings());
        settings.putAll(changes);
        return p.withProvenance(RunProvenance.of(r.memboundVersion(), r.jmhVersion(), settings, r.commandLine(),
                Instant.parse(createdUtc), null));
    }

    /** Every DRAM bandwidth figure of the CPU (entries and ceilings) times {@code factor}. */
    static Profile slowerCpuDram(Profile p, double factor) {
        Device cpu = p.device("cpu").orElseThrow();
        List<BandwidthEntry> entries = new ArrayList<>();
        for (BandwidthEntry b : cpu.bandwidth()) {
            entries.add(b.level() != MemoryLevel.DRAM ? b : new BandwidthEntry(b.id(), b.kernel(), b.pattern(),
                    b.standsIn(), b.elementType(), b.implementation(), b.threads(), b.placement(), b.workingSetBytes(), b.level(), scale(b.streamBytesPerSecond(), factor),
                    b.hardwareBytesPerSecond() == null ? null : scale(b.hardwareBytesPerSecond(), factor),
                    b.provenance()));
        }
        List<LevelCeiling> ceilings = new ArrayList<>();
        for (LevelCeiling c : cpu.levels()) {
            ceilings.add(c.level() != MemoryLevel.DRAM ? c : new LevelCeiling(c.level(), c.access(),
                    c.bytesPerSecond() * factor, c.statistic(), c.bandwidthId(), c.provenance()));
        }
        return p.withDevice(cpu.withBandwidth(entries).withLevels(ceilings)).withDerivedEfficiency();
    }

    private static Distribution scale(Distribution d, double factor) {
        return d.scaled(factor);
    }
}
