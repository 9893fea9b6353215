package membound.hardware.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.hardware.host.Fixtures;
import membound.hardware.host.Host;
import membound.vocabulary.BadInputException;
import membound.vocabulary.LinkKind;
import membound.vocabulary.Precision;

class CatalogTest {

    private static final Catalog CATALOG = Catalog.builtIn();
    private static final double GB = 1e9;
    private static final double TFLOPS = 1e12;

    @Test
    void shouldHoldEveryPlatformTheModelCompares() {
        assertEquals(List.of("dgx-spark", "gh200", "h100-sxm", "h200-sxm", "a100-sxm-80gb", "b200", "gb200", "rtx-5090",
                "apple-m4-max", "apple-m3-ultra", "ryzen-ai-max-395", "grace-superchip"), CATALOG.ids());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-spark", "DGX Spark", "spark", "GB10", "nvidia_dgx_spark", "NVIDIA DGX Spark"})
    void shouldFindDgxSparkByIdOrAlias(String name) {
        assertEquals("dgx-spark", CATALOG.find(name).orElseThrow().id());
    }

    @Test
    void shouldGiveSparkNominalHostBandwidthAndUnifiedMemory() {
        PlatformSpec spark = CATALOG.require("dgx-spark");
        assertEquals(273 * GB, spark.nominalHostMemoryBandwidth().orElseThrow().value());
        assertTrue(spark.unifiedMemory());
        DeviceSpec gpu = spark.gpu().orElseThrow();
        assertEquals(128 * GB, gpu.memoryCapacityBytes().value());
        assertEquals(1e15, gpu.sparsePeak(Precision.FP4).orElseThrow().value());
        assertEquals(500 * TFLOPS, gpu.densePeak(Precision.FP4).orElseThrow().value());
        assertTrue(gpu.densePeak(Precision.BF16).isEmpty(), "NVIDIA publishes no GB10 BF16 peak");
        assertEquals(25 * GB, spark.link(LinkKind.NETWORK).orElseThrow().bytesPerSecondPerDirection().value());
    }

    @Test
    void shouldGiveHopperDensePeaksAsHalfTheSparseOnes() {
        DeviceSpec h100 = CATALOG.require("h100").gpu().orElseThrow();
        assertEquals(989.5 * TFLOPS, h100.densePeak(Precision.BF16).orElseThrow().value());
        assertEquals(1979 * TFLOPS, h100.densePeak(Precision.FP8).orElseThrow().value());
        assertEquals(2 * h100.densePeak(Precision.FP8).orElseThrow().value(),
                h100.sparsePeak(Precision.FP8).orElseThrow().value());
        assertEquals(3.35e12, h100.memoryBandwidthBytesPerSecond().value());
        assertFalse(h100.unifiedMemory());
    }

    @Test
    void shouldGiveOneGb200GpuHalfItsSuperchipWithNvlinkToTheRackAndC2cToGrace() {
        PlatformSpec gb200 = CATALOG.require("nvl72");
        assertEquals("gb200", gb200.id());
        DeviceSpec gpu = gb200.gpu().orElseThrow();
        assertEquals(186 * GB, gpu.memoryCapacityBytes().value());
        assertEquals(8e12, gpu.memoryBandwidthBytesPerSecond().value());
        assertEquals(2500 * TFLOPS, gpu.densePeak(Precision.BF16).orElseThrow().value());
        assertEquals(5000 * TFLOPS, gpu.densePeak(Precision.FP8).orElseThrow().value());
        assertEquals(10000 * TFLOPS, gpu.densePeak(Precision.FP4).orElseThrow().value());
        assertEquals(2 * gpu.densePeak(Precision.FP4).orElseThrow().value(),
                gpu.sparsePeak(Precision.FP4).orElseThrow().value());
        assertEquals(900 * GB, gb200.link(LinkKind.NVLINK).orElseThrow().bytesPerSecondPerDirection().value());
        assertEquals(450 * GB, gb200.link(LinkKind.C2C).orElseThrow().bytesPerSecondPerDirection().value());
        assertTrue(gb200.link(LinkKind.C2C).orElseThrow().bytesPerSecondPerDirection().source().contains("shared"));
    }

    @Test
    void shouldHaveNoHostBandwidthForAGpuBoard() {
        assertTrue(CATALOG.require("h200-sxm").nominalHostMemoryBandwidth().isEmpty());
        assertEquals(512 * GB, CATALOG.require("gh200").nominalHostMemoryBandwidth().orElseThrow().value());
    }

    @Test
    void shouldCarryANonBlankSourceOnEveryFigure() {
        List<Figure> figures = new ArrayList<>();
        for (PlatformSpec p : CATALOG.all()) {
            for (DeviceSpec d : p.devices()) {
                figures.add(d.memoryCapacityBytes());
                figures.add(d.memoryBandwidthBytesPerSecond());
                figures.addAll(d.densePeakFlopsPerSecond().values());
                figures.addAll(d.sparsePeakFlopsPerSecond().values());
            }
            p.links().forEach(l -> figures.add(l.bytesPerSecondPerDirection()));
        }
        assertTrue(figures.size() > 80, "figures=" + figures.size());
        for (Figure f : figures) {
            assertFalse(f.source().isBlank(), f::toString);
        }
    }

    @Test
    void shouldMarkThirdPartyAndDerivedFiguresInTheirSource() {
        String rtx = CATALOG.require("rtx-5090").gpu().orElseThrow().memoryBandwidthBytesPerSecond().source();
        assertTrue(rtx.startsWith("unverified"), rtx);
        String gb10Fp32 = CATALOG.require("dgx-spark").gpu().orElseThrow().densePeak(Precision.FP32).orElseThrow()
                .source();
        assertTrue(gb10Fp32.startsWith("third-party"), gb10Fp32);
        String denseFp4 = CATALOG.require("dgx-spark").gpu().orElseThrow().densePeak(Precision.FP4).orElseThrow()
                .source();
        assertTrue(denseFp4.contains("dense = sparse / 2"), denseFp4);
        String h100Tf32 = CATALOG.require("h100-sxm").gpu().orElseThrow().densePeak(Precision.TF32).orElseThrow()
                .source();
        assertTrue(h100Tf32.endsWith(Datasheets.NOT_RECHECKED), h100Tf32);
    }

    @Test
    void shouldSuggestCloseMatchesForAMistypedName() {
        BadInputException e = assertThrows(BadInputException.class, () -> CATALOG.require("dgx-sprak"));
        assertTrue(e.getMessage().startsWith("platform must be a catalog id or alias: platform=dgx-sprak"),
                e.getMessage());
        assertTrue(e.getMessage().contains("did you mean dgx-spark?"), e.getMessage());
        assertTrue(e.getMessage().contains("Known ids: dgx-spark, gh200"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void shouldListKnownIdsWhenNothingIsClose() {
        BadInputException e = assertThrows(BadInputException.class, () -> CATALOG.require("commodore-64-xyz"));
        assertFalse(e.getMessage().contains("did you mean"), e.getMessage());
        assertTrue(e.getMessage().contains("Known ids:"), e.getMessage());
    }

    @Test
    void shouldSuggestH100AndH200ForAnAmbiguousTypo() {
        assertEquals(List.of("h100-sxm", "h200-sxm"),
                Stream.of("h300").flatMap(q -> CATALOG.closeMatches(q).stream()).limit(2).sorted().toList());
    }

    @Test
    void shouldMatchTheDetectedDgxSparkAndNothingForTheDevelopmentMachine() {
        Host spark = Fixtures.detect("dgx-spark");
        assertEquals("dgx-spark", CATALOG.match(spark).orElseThrow().id());
        Host epyc = Fixtures.detect("dev-epyc");
        assertTrue(CATALOG.match(epyc).isEmpty());
    }

    @Test
    void shouldRefuseDuplicateNames() {
        PlatformSpec spark = CATALOG.require("dgx-spark");
        assertThrows(IllegalArgumentException.class, () -> new Catalog(List.of(spark, spark)));
    }

    @Test
    void shouldRejectFiguresWithoutSourceOrValue() {
        assertThrows(IllegalArgumentException.class, () -> Figure.bytes(1, " "));
        assertThrows(IllegalArgumentException.class, () -> Figure.bytes(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> Figure.bytes(Double.NaN, "x"));
    }

    @Test
    void shouldBeListedEntryByEntryInTheDocs() throws java.io.IOException {
        // Surefire runs in the module directory; the page sits at the repository root.
        String docs = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "hardware.md"));
        for (String id : CATALOG.ids()) {
            assertTrue(docs.contains("| `" + id + "` |"), "docs/hardware.md lacks a row for " + id);
        }
    }
}
