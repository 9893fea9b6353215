package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.calibrator.Fixtures;
import membound.profile.Link;
import membound.vocabulary.BadInputException;
import membound.vocabulary.LinkKind;

/**
 * The ways people publish outputs, each made from a published output by the edit named in the test (synthetic
 * variants, not counted among the published fixtures): tolerances that follow the printed digits, logs cut
 * short or with other lines inside, pasted with CRLF or runs of spaces collapsed, and files under the wrong
 * {@code --format}.
 */
class PublishedLayoutsTest {

    static String published(String name) throws IOException {
        return Files.readString(Fixtures.local(PublishedOutputs.DIRECTORY + "/" + name));
    }

    static ImportedFigures parse(ImportFormat format, String text) {
        return format.parse(text.getBytes(StandardCharsets.UTF_8), "synthetic.txt", 0);
    }

    static BadInputException refused(ImportFormat format, String text) {
        BadInputException e = assertThrows(BadInputException.class, () -> parse(format, text));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e;
    }

    @Test
    void shouldHoldBabelStreamToTheDigitsItPrintedNotToOnePercent() throws IOException {
        // A100-like speeds (synthetic): 5-decimal times of 0.4 ms round by up to 1.25%, here by 1.2%.
        String fast = published("babelstream-3.3-cuda-titan-xp.txt").replaceAll("(?m)^Copy .*$",
                "Copy        1358479.030 0.00040     0.00041     0.00040");
        assertEquals(1358479.030e6, parse(ImportFormat.BABELSTREAM, fast).bandwidth().get(0).streamBytesPerSecond()
                .best(), 1);
        // 3% off is more than the printed digits allow: a misread table.
        String wrong = fast.replace("1358479.030", "1383000.000");
        assertTrue(refused(ImportFormat.BABELSTREAM, wrong).getMessage().contains("must be self-consistent (Copy rate"));
    }

    @Test
    void shouldReadLowerCaseCsvHeadersOfTheReleases() {
        // BabelStream 3.3 to 5.0 print max_mbytes_per_sec in lower case (synthetic rows, BabelStream's formula).
        String csv = "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime\n"
                + "Copy,100,33554432,8,433180.497,0.00123937,0.00128,0.00125\n";
        ImportedBandwidth copy = parse(ImportFormat.BABELSTREAM, csv).bandwidth().get(0);
        assertEquals(433180.497e6, copy.streamBytesPerSecond().best(), 1);
        assertEquals(2L * 33554432 * 8, copy.workingSetBytes());
    }

    @Test
    void shouldReadCrlfAndCollapsedSpaces() throws IOException {
        String pasted = published("stream-c-5.10-intel-knl.txt").replace("\n", "\r\n").replaceAll(" {2,}", " ");
        assertEquals(447436.7e6, kernel(parse(ImportFormat.STREAM, pasted), "triad").streamBytesPerSecond().best());
    }

    @Test
    void shouldReadANcclLogCutInItsLastRowAndSayWhatItPassedOver() throws IOException {
        String log = published("nccl-tests-nccl2.12.7-t4-efa-2hosts-mpirun-tagged.txt");
        String cut = log.substring(0, log.indexOf("float     sum      -1   344981")); // the last row, half printed
        ImportedFigures figures = parse(ImportFormat.NCCL_TESTS, cut);
        long largest = figures.linkMeasurements().stream().mapToLong(Link.Measurement::messageBytes).max().orElseThrow();
        assertEquals(536870912L, largest, "rows up to the cut are read");
        assertTrue(figures.skipped().stream().anyMatch(s -> s.startsWith("the last row, cut off")), figures.skipped()
                .toString());
        assertTrue(figures.skipped().stream().anyMatch(s -> s.startsWith("no closing")), figures.skipped().toString());
        assertTrue(figures.skipped().stream().anyMatch(s -> s.contains("not rows (NCCL INFO, MPI, elisions)")));
        assertTrue(figures.skipped().stream().anyMatch(s -> s.contains("sizes 0 to")), "-b 1 prints size-0 rows");
    }

    @Test
    void shouldRefuseRankLinesThatContradictTheTable() throws IOException {
        // Three complete rank lines put before a two-GPU table (busbw = algbw): 2(n-1)/n says 2, not 3.
        String table = published("nccl-tests-nccl2.16.2-a40-2gpus-nvlink-table-only.txt");
        String ranks = "#  Rank  0 Group  0 Pid 1 on node device  0 [0x01] NVIDIA A40\n"
                + "#  Rank  1 Group  0 Pid 1 on node device  1 [0x02] NVIDIA A40\n"
                + "#  Rank  2 Group  0 Pid 1 on node device  2 [0x03] NVIDIA A40\n";
        assertTrue(refused(ImportFormat.NCCL_TESTS, ranks + table).getMessage()
                .contains("busbw/algbw = 2(n-1)/n for the 3 ranks its rank lines list; the rows allow n = 2"));
    }

    @Test
    void shouldInferNvlinkOnOneHostFromSxmDeviceNames() throws IOException {
        // The four-GPU NVSwitch table with its rank lines put back as nccl-tests prints them on one host.
        StringBuilder log = new StringBuilder("# nThread 1 nGpus 4 minBytes 1073741824 maxBytes 10737418240 step: "
                + "2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 4; r++) {
            log.append("#  Rank  ").append(r).append(" Group  0 Pid 77 on dgx-a100 device  ").append(r)
                    .append(" [0x0").append(r).append("] NVIDIA A100-SXM4-80GB\n");
        }
        ImportedFigures figures = parse(ImportFormat.NCCL_TESTS,
                log + published("nccl-tests-nccl2.16.2-a100-4gpus-nvswitch-table-only.txt"));
        InferredLinkKind kind = InferredLinkKind.of(figures, ImportFormat.NCCL_TESTS, null).orElseThrow();
        assertEquals(LinkKind.NVLINK, kind.kind());
        assertTrue(kind.from().contains("all 4 ranks on one host (dgx-a100)"), kind.from());
        String pcie = log.toString().replace("A100-SXM4-80GB", "A100 80GB PCIe");
        assertEquals(LinkKind.PCIE, InferredLinkKind.of(parse(ImportFormat.NCCL_TESTS,
                pcie + published("nccl-tests-nccl2.16.2-a100-4gpus-nvswitch-table-only.txt")),
                ImportFormat.NCCL_TESTS, null).orElseThrow().kind());
    }

    @Test
    void shouldReadNvbandwidthTextAndInferTheLinkFromTheDeviceName() {
        // nvbandwidth's text layout (output.cpp) for a one-GPU GB10 (synthetic figures).
        String text = "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\nCUDA Runtime Version: 13000\n"
                + "CUDA Driver Version: 13000\nDriver Version: 580.95.05\n\nspark-1\nDevice 0: NVIDIA GB10 (000f:01:00)\n\n"
                + "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
                + "           0\n 0     54.21\n\nSUM host_to_device_memcpy_ce 54.21\n\n"
                + "Running device_to_device_memcpy_read_ce.\nWaived: \n\n"
                + "Running device_local_copy.\nmemcpy local GPU(column) bandwidth (GB/s)\n           0\n 0    112.39\n\n"
                + "SUM device_local_copy 112.39\n";
        ImportedFigures figures = parse(ImportFormat.NVBANDWIDTH, text);
        assertEquals("v0.8", figures.toolVersion());
        assertEquals(54.21e9, figures.linkBandwidth().best(), 1);
        assertEquals(2 * 112.39e9, figures.bandwidth().get(0).streamBytesPerSecond().best(), 1);
        assertEquals(List.of("device_to_device_memcpy_read_ce (status Waived)"), figures.skipped());
        assertEquals(LinkKind.C2C, InferredLinkKind.of(figures, ImportFormat.NVBANDWIDTH, null).orElseThrow().kind());
        assertTrue(refused(ImportFormat.NVBANDWIDTH, "nvbandwidth Version: v0.8\n\nDevice 0: NVIDIA H100\n")
                .getMessage().contains("rerun with -j"));
    }

    @Test
    void shouldNameTheToolAFileUnderTheWrongFormatLooksLike() throws IOException {
        String nccl = published("nccl-tests-a100-16ranks-2hosts-kubeflow.txt");
        String message = refused(ImportFormat.LIKWID, nccl).getMessage();
        assertTrue(message.startsWith("--format likwid must name the tool whose output the file is: file=synthetic.txt, "
                + "line="), message);
        assertTrue(message.endsWith("looks like nccl-tests output (\"# nThread 1 nGpus 1 minBytes 1073741824 maxBytes "
                + "10737418240 step: 9663676416...\"): give --format nccl-tests"), message);
        assertTrue(refused(ImportFormat.NVBANDWIDTH, published("babelstream-2.0-cuda-k40.txt")).getMessage()
                .endsWith("give --format babelstream"));
    }

    private static ImportedBandwidth kernel(ImportedFigures figures, String kernel) {
        return figures.bandwidth().stream().filter(b -> b.kernel().equals(kernel)).findFirst().orElseThrow();
    }
}
