package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.calibrator.store.ProfileStore;
import membound.profile.Link;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Quality;
import membound.vocabulary.LinkKind;

/**
 * Published peer outputs import without a flag the output itself answers (issue 29): the link kind is inferred
 * from what the file shows, and where it truly cannot be known the link is imported as {@code unknown} with a flag
 * that says the next step in one line, instead of the import stopping on {@code --link-kind}.
 */
class ImportWithoutFlagsTest {

    @TempDir
    Path dir;
    Path profiles;
    Path spark;

    @BeforeEach
    void store() {
        profiles = dir.resolve("profiles");
        spark = new ProfileStore(profiles).save(TestProfiles.exampleProfile());
    }

    static Path published(String name) {
        return TestProfiles.localFixture("published/" + name);
    }

    Profile importNccl(String fixture, String link) throws IOException {
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("import", "--format", "nccl-tests",
                published(fixture).toString(), "--into", spark.toString(), "--link", link, "--profiles-dir",
                profiles.toString());
        List<Path> files = new ProfileStore(profiles).list();
        assertEquals(2, files.size(), r.both());
        return ProfileJson.read(files.get(1));
    }

    @Test
    void aFullNvl72RackPastedFromItsLastRankLineImportsAsNvlinkFromItsBusBandwidth() throws IOException {
        Profile p = importNccl("nccl-tests-gb200-nvl72-72ranks-rank-line-only.txt", "nvl72");
        Link link = p.link("nvl72").orElseThrow();
        assertEquals(LinkKind.NVLINK, link.kind());
        assertEquals(72, link.measurements().get(0).ranks());
    }

    @Test
    void aCollectiveThatCrossedMoreThanOneNvlinkDomainImportsAsUnknownWithTheNextStep() throws IOException {
        Profile p = importNccl("nccl-tests-nccl2.29.2-gb200-128ranks-partial.txt", "gb200");
        assertEquals(LinkKind.UNKNOWN, p.link("gb200").orElseThrow().kind());
        Quality.Flag flag = p.quality().flags().stream().filter(f -> f.code().equals("link-kind-unknown"))
                .findFirst().orElseThrow();
        assertEquals("gb200", flag.subject());
        assertTrue(flag.message().contains("next: import it again with --link-kind"), flag.message());
        assertTrue(!flag.message().contains("\n"), "one line");
    }

    @Test
    void aTableWithoutRankLinesOrTransportLinesImportsAsUnknownNotRefused() throws IOException {
        Profile p = importNccl("nccl-tests-nccl2.16.2-a40-2gpus-nvlink-table-only.txt", "pair");
        assertEquals(LinkKind.UNKNOWN, p.link("pair").orElseThrow().kind());
    }

    @Test
    void ncclTransportLinesShowTheNetwork() throws IOException {
        Profile p = importNccl("nccl-tests-nccl2.12.7-t4-efa-2hosts-mpirun-tagged.txt", "efa");
        assertEquals(LinkKind.NETWORK, p.link("efa").orElseThrow().kind());
    }

    @Test
    void theGivenLinkKindStillWinsOverUnknown() throws IOException {
        ProfileCommandsTest.ok("import", "--format", "nccl-tests",
                published("nccl-tests-nccl2.16.2-a40-2gpus-nvlink-table-only.txt").toString(), "--into",
                spark.toString(), "--link", "pair", "--link-kind", "nvlink", "--profiles-dir", profiles.toString());
        Profile p = ProfileJson.read(new ProfileStore(profiles).list().get(1));
        assertEquals(LinkKind.NVLINK, p.link("pair").orElseThrow().kind());
        assertTrue(p.quality().flags().stream().noneMatch(f -> f.code().equals("link-kind-unknown")));
    }

    @Test
    void gpuStream00WithoutARunCountLineImports() throws IOException {
        ProfileCommandsTest.Run r = ProfileCommandsTest.ok("import", "--format", "babelstream",
                published("babelstream-0.0-cuda-tesla-k80.txt").toString(), "--into", spark.toString(), "--device",
                "gpu", "--profiles-dir", profiles.toString());
        Profile p = ProfileJson.read(new ProfileStore(profiles).list().get(1));
        var triad = p.device("gpu").orElseThrow().bandwidth().stream()
                .filter(b -> b.id().startsWith("gpu-babelstream-triad")).findFirst()
                .orElseThrow(() -> new AssertionError(r.both()));
        assertEquals("0.0", triad.provenance().toolVersion());
        assertEquals(203421.823e6, triad.streamBytesPerSecond().best(), 1);
        assertTrue(triad.provenance().settings().get("numTimes").startsWith("not printed"), r.both());
    }
}
