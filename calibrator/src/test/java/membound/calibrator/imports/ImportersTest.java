package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import membound.calibrator.Fixtures;
import membound.profile.Distribution;
import membound.profile.Link;
import membound.profile.ProvenanceKind;
import membound.vocabulary.AccessPattern;

/** Each importer on real (or format-exact) output, checked against the figures printed in the file. */
class ImportersTest {

    /** Rates computed from printed times carry the rounding of those times. */
    static final double PRINTED_TIME_PRECISION = 1e-4;

    static Map<String, ImportedBandwidth> byKernel(ImportedFigures figures) {
        return figures.bandwidth().stream().collect(Collectors.toMap(ImportedBandwidth::kernel, b -> b));
    }

    @Test
    void shouldReadStreamCBestRatesAndSlowestTimes() {
        ImportedFigures figures = ImportFormat.STREAM.parse(Fixtures.local("stream-c-5.10-2threads-80M.txt"), 0);
        assertEquals("STREAM", figures.tool());
        assertEquals("5.10", figures.toolVersion());
        Map<String, ImportedBandwidth> k = byKernel(figures);
        assertEquals(List.of("copy", "scale", "add", "triad"),
                figures.bandwidth().stream().map(ImportedBandwidth::kernel).toList());
        Distribution copy = k.get("copy").streamBytesPerSecond();
        assertEquals(32468.4e6, copy.best());
        assertEquals(2 * 80_000_000L * 8 / 0.061755, copy.worst(), copy.worst() * PRINTED_TIME_PRECISION);
        assertEquals(19, copy.samples(), "NTIMES 20, the first excluded");
        assertNull(copy.median(), "stream.c prints no median");
        assertEquals(18256.8e6, k.get("scale").streamBytesPerSecond().best());
        assertEquals(21800.4e6, k.get("add").streamBytesPerSecond().best());
        assertEquals(22634.0e6, k.get("triad").streamBytesPerSecond().best());
        assertEquals(3 * 80_000_000L * 8, k.get("triad").workingSetBytes());
        assertEquals(2, k.get("triad").threads());
        assertEquals("double", k.get("triad").elementType());
        assertEquals(AccessPattern.TRIAD, k.get("triad").access());
        assertEquals(ProvenanceKind.IMPORTED, k.get("triad").provenance().kind());
        assertEquals("Triad", k.get("triad").provenance().kernel());
        assertTrue(k.get("triad").provenance().file().endsWith("stream-c-5.10-2threads-80M.txt"));
    }

    @Test
    void shouldReadBabelStreamText() {
        ImportedFigures figures = ImportFormat.BABELSTREAM.parse(
                Fixtures.local("babelstream-5.0-omp-text-double.txt"), 0);
        assertEquals("5.0", figures.toolVersion());
        assertEquals("OpenMP", figures.settings().get("implementation"));
        Map<String, ImportedBandwidth> k = byKernel(figures);
        assertEquals(23749.271e6, k.get("copy").streamBytesPerSecond().best());
        assertEquals(23307.208e6, k.get("scale").streamBytesPerSecond().best(), "BabelStream's Mul is STREAM's scale");
        assertEquals("Mul", k.get("scale").provenance().kernel());
        assertEquals(27068.992e6, k.get("add").streamBytesPerSecond().best());
        assertEquals(27701.843e6, k.get("triad").streamBytesPerSecond().best());
        assertEquals(22622.630e6, k.get("dot").streamBytesPerSecond().best());
        assertEquals(AccessPattern.READ, k.get("dot").access());
        assertEquals(2L * 67108864 * 8, k.get("copy").workingSetBytes());
        assertEquals(2L * 67108864 * 8 / 0.07255, k.get("copy").streamBytesPerSecond().worst(),
                1e9 * PRINTED_TIME_PRECISION * 10);
        assertEquals(19, k.get("copy").streamBytesPerSecond().samples());
        assertNull(k.get("copy").threads(), "BabelStream does not print its OpenMP thread count");
    }

    @Test
    void shouldReadBabelStreamCsvInMegabytes() {
        ImportedFigures figures = ImportFormat.BABELSTREAM.parse(
                Fixtures.local("babelstream-5.0-omp-csv-double-MB.txt"), 0);
        Map<String, ImportedBandwidth> k = byKernel(figures);
        assertEquals(23751.9e6, k.get("copy").streamBytesPerSecond().best());
        assertEquals(23188.2e6, k.get("scale").streamBytesPerSecond().best());
        assertEquals(25953.4e6, k.get("add").streamBytesPerSecond().best());
        assertEquals(25795.4e6, k.get("triad").streamBytesPerSecond().best());
        assertEquals(23415.4e6, k.get("dot").streamBytesPerSecond().best());
        assertEquals("double", k.get("copy").elementType());
        assertEquals("MB", figures.settings().get("rateUnit"));
    }

    @Test
    void shouldReadBabelStreamCsvInMebibytesAndFloats() {
        ImportedFigures figures = ImportFormat.BABELSTREAM.parse(
                Fixtures.local("babelstream-5.0-omp-csv-float-MiB.txt"), 0);
        Map<String, ImportedBandwidth> k = byKernel(figures);
        assertEquals(18755.9 * 1048576, k.get("copy").streamBytesPerSecond().best(), 1e-3);
        assertEquals(20572.1 * 1048576, k.get("triad").streamBytesPerSecond().best(), 1e-3);
        assertEquals(13793.8 * 1048576, k.get("dot").streamBytesPerSecond().best(), 1e-3);
        assertEquals("float", k.get("copy").elementType());
        assertEquals(2L * 33554432 * 4, k.get("copy").workingSetBytes());
        assertEquals("MiB", figures.settings().get("rateUnit"));
    }

    @Test
    void shouldReadLikwidBench() {
        ImportedFigures stream = ImportFormat.LIKWID.parse(
                Fixtures.local("likwid-bench-5.2.2-stream_avx_fma-N-1GB-2.txt"), 0);
        ImportedBandwidth triad = stream.bandwidth().get(0);
        assertEquals("triad", triad.kernel(), "likwid's stream test is STREAM's triad");
        assertEquals(15623.73e6, triad.streamBytesPerSecond().best());
        assertEquals(1, triad.streamBytesPerSecond().samples());
        assertEquals(2, triad.threads());
        assertEquals(999999744L, triad.workingSetBytes());
        assertNull(stream.toolVersion(), "likwid-bench does not print its version");
        assertEquals("stream_avx_fma", triad.provenance().kernel());

        ImportedBandwidth copy = ImportFormat.LIKWID.parse(
                Fixtures.local("likwid-bench-5.2.2-copy_avx-N-1GB-2.txt"), 0).bandwidth().get(0);
        assertEquals("copy", copy.kernel());
        assertEquals(22161.77e6, copy.streamBytesPerSecond().best());
        ImportedBandwidth load = ImportFormat.LIKWID.parse(
                Fixtures.local("likwid-bench-5.2.2-load_avx-N-1GB-2.txt"), 0).bandwidth().get(0);
        assertEquals(AccessPattern.READ, load.access());
        assertEquals(29199.20e6, load.streamBytesPerSecond().best());
    }

    @Test
    void shouldReadNvbandwidthJson() {
        ImportedFigures figures = ImportFormat.NVBANDWIDTH.parse(
                Fixtures.local("nvbandwidth-v0.8-j-gb10-synthetic.json"), 0);
        assertEquals("v0.8", figures.toolVersion());
        assertEquals("NVIDIA GB10 (000f:01:00)", figures.deviceName());
        ImportedBandwidth copy = figures.bandwidth().get(0);
        assertEquals("copy", copy.kernel());
        assertEquals(2 * 112.387e9, copy.streamBytesPerSecond().best(), 1,
                "a copy reads and writes: twice the bytes nvbandwidth counts");
        List<Link.Measurement> m = figures.linkMeasurements();
        assertEquals(List.of("host_to_device_memcpy_ce", "device_to_host_memcpy_ce",
                "host_to_device_bidirectional_memcpy_ce"), m.stream().map(Link.Measurement::operation).toList());
        assertEquals(54.2138e9, m.get(0).bytesPerSecond(), 1);
        assertEquals(54.2138e9, figures.linkBandwidth().best(), 1);
        assertEquals(53.874e9, figures.linkBandwidth().worst(), 1);
        assertEquals(801.562, figures.linkLatencyNanos());
        assertEquals(List.of("device_to_device_memcpy_read_ce (status Waived)"), figures.skipped());
    }

    @Test
    void shouldReadNcclTestsAllReduce() {
        ImportedFigures figures = ImportFormat.NCCL_TESTS.parse(
                Fixtures.local("nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt"), 0);
        assertEquals("2.17.1", figures.toolVersion());
        assertEquals(List.of("spark-1", "spark-2"), figures.hosts());
        assertEquals("NVIDIA GB10", figures.deviceName());
        Link.Measurement largest = figures.linkMeasurements().stream()
                .filter(x -> x.messageBytes() == 4294967296L && !x.inPlace()).findFirst().orElseThrow();
        assertEquals(22.20e9, largest.bytesPerSecond(), 1);
        assertEquals(22.20e9, largest.busBytesPerSecond(), 1);
        assertEquals(193496e3, largest.timeNanos(), 1e-3);
        assertEquals(2, largest.ranks());
        assertEquals("float", largest.dataType());
        // The plateau: busbw of the 4 largest sizes, both placements.
        Distribution plateau = figures.linkBandwidth();
        assertEquals(8, plateau.samples());
        assertEquals(22.21e9, plateau.best(), 1);
        assertEquals(21.79e9, plateau.worst(), 1);
        assertEquals(List.of("8 results that print 0.00 GB/s (sizes 8 to 64 bytes), below the table's resolution"),
                figures.skipped());
    }

    @Test
    void shouldRefuseARankNumberBeyondACountOfRanksWithOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        // The fuzz test found it: a rank of 30 digits was a NumberFormatException, not bad input.
        String text = java.nio.file.Files.readString(
                Fixtures.local("nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt"));
        java.nio.file.Path file = dir.resolve("nccl.txt");
        java.nio.file.Files.writeString(file, text.replace("#  Rank  1 Group", "#  Rank  999999999999999999999999999999 Group"));
        membound.vocabulary.BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                membound.vocabulary.BadInputException.class, () -> ImportFormat.NCCL_TESTS.parse(file, 0));
        assertTrue(e.getMessage().contains("must have a rank number that fits a count of ranks: file=" + file + ", line=7"),
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void shouldReadTheOlderNcclTestsLayout() {
        ImportedFigures figures = ImportFormat.NCCL_TESTS.parse(
                Fixtures.local("nccl-tests-old-layout-all_reduce_perf-2x-v100-synthetic.txt"), 0);
        assertNull(figures.toolVersion());
        assertEquals(14, figures.linkMeasurements().size());
        Link.Measurement first = figures.linkMeasurements().get(0);
        assertEquals(1048576L, first.messageBytes());
        assertEquals(6.09e9, first.bytesPerSecond(), 1);
        assertEquals(172.3e3, first.timeNanos(), 1e-6);
        assertEquals(9.36e9, figures.linkBandwidth().best(), 1);
        assertFalse(figures.hosts().isEmpty());
    }
}
