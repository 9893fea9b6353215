package membound.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.suite.SuiteRequest;
import membound.vocabulary.BadInputException;
import membound.profile.Profile;
import membound.profile.ProfileJson;

class ValidationTest {

    @TempDir
    Path dir;

    private static final ValidationReport.Measured TENTH_OF_A_SECOND =
            new ValidationReport.Measured(0.1, 0.09, 0.12, 20);

    @Test
    void shouldRunEveryWorkloadThroughTheSuiteAndPredictItFromTheProfile() {
        // A smoke test of the machinery, not a measurement: it may share the machine with another JMH run.
        System.setProperty("jmh.ignoreLock", "true");
        ValidationMachines profile = ValidationMachines.of(TestProfiles.example(), null, null);
        StringWriter progress = new StringWriter();
        ValidationReport report;
        try {
            report = Validation.run(new Validation.Request(profile, List.of(ReferenceWorkload.values()),
                    new OptionsBuilder().warmupIterations(0).measurementIterations(1)
                            .measurementTime(TimeValue.milliseconds(200)).forks(1).shouldFailOnError(true).build(),
                    false, true, true, "membound validate (test)"), new PrintWriter(progress, true), ValidationTest::tiny);
        } catch (ValidationFailedException e) {
            throw new AssertionError(e.getMessage() + "\n" + String.join("\n", e.jmhTail()), e);
        }

        assertEquals(4, report.rows().size(), progress.toString());
        for (ValidationReport.Row row : report.rows()) {
            assertTrue(row.measured().medianSeconds() > 0, row.toString());
            assertTrue(row.predictedSeconds() > 0, row.toString());
            assertNotNull(row.datasheetSeconds(), "the example profile has a nominal bandwidth");
        }
        ValidationReport.Row tenants = report.rows().get(3);
        assertEquals(2, tenants.tenantMedianSeconds().size(), progress.toString());
        assertTrue(report.rows().get(2).operations().stream().allMatch(op -> op.measuredSeconds() != null),
                "every transformer operation timed alone");
        assertTrue(progress.toString().contains("[4/4] AdamW step, 2 tenants"), progress.toString());
        assertNotNull(report.drift(), "the workloads bracketed by the drift probe");
        assertTrue(report.drift().before().triadBytesPerSecond() > 0 && report.drift().after().gemmFlopsPerSecond() > 0,
                report.drift().toString());
        assertTrue(report.rows().stream().allMatch(r -> r.probedSeconds() != null && r.probedSeconds() > 0),
                "every workload also predicted at the probe's rates");
        assertTrue(ReportFormat.text(report).contains("drift probe: DRAM triad "), "the text says what the probe found");

        Path recorded = new ValidationStore(dir).save(report);
        Path again = new ValidationStore(dir).save(report);
        assertTrue(recorded.getFileName().toString().matches(".+-\\d{8}T\\d{6}Z\\.json"), recorded.toString());
        assertTrue(again.getFileName().toString().endsWith("-2.json"), "never over another run: " + again);
    }

    @Test
    void shouldPredictEachTenantAtItsShareOfTheBandwidth() {
        ValidationMachines profile = ValidationMachines.of(TestProfiles.example(), null, null);
        Map<String, String> run = Map.of("parameters", "33554432", "tenants", "2");
        ValidationReport.Row one = Validation.row(ReferenceWorkload.OPTIMIZER, Map.of("parameters", "33554432",
                "threads", "all"), TENTH_OF_A_SECOND, List.of(), profile);
        ValidationReport.Row two = Validation.row(ReferenceWorkload.TENANTS, run, TENTH_OF_A_SECOND, List.of(), profile);

        // The example's tenants curve: 57 GB/s per tenant of two against 108 GB/s alone.
        double share = membound.model.roofline.Ceilings.bandwidthShare(profile.measured(), 2);
        assertEquals(57.0 / 108, share, 1e-9);
        assertEquals(one.predictedSeconds() / share, two.predictedSeconds(), 1e-9);
        assertEquals(1.0, one.memoryBoundShare(), 1e-9, "an optimizer step is all bandwidth");
    }

    @Test
    void shouldPredictFasterOnTheDatasheetWhenTheNominalBandwidthIsAboveTheMeasured() {
        ValidationMachines profile = ValidationMachines.of(TestProfiles.example(), null, null);
        ValidationReport.Row row = Validation.row(ReferenceWorkload.OPTIMIZER, Map.of("parameters", "33554432"),
                TENTH_OF_A_SECOND, List.of(), profile);
        // 273 GB/s nominal for every pattern: 36 bytes per parameter over it; the measured ceilings are lower.
        assertEquals(36.0 * 33554432 / 273e9, row.datasheetSeconds(), 1e-12);
        assertTrue(row.datasheetSeconds() < row.predictedSeconds(), row.toString());
        assertEquals((row.predictedSeconds() - 0.1) / 0.1, row.error(), 1e-12);
    }

    @Test
    void shouldSayUnknownWithoutANominalBandwidthAndUseOneWhenGiven() throws Exception {
        Profile example = ProfileJson.read(TestProfiles.example());
        Profile unknown = new Profile(example.host(), membound.profile.Nominal.unknown("no catalog entry matches this "
                + "host", "cpu", "gpu"), example.devices(), example.links(), example.efficiency(), example.quality(),
                example.provenance());
        Path file = dir.resolve("unknown.json");
        Files.write(file, ProfileJson.toBytes(unknown));

        ValidationMachines none = ValidationMachines.of(file, null, null);
        assertNull(none.datasheet());
        assertTrue(none.datasheetSource().startsWith("unknown: no catalog entry"), none.datasheetSource());
        assertNull(Validation.row(ReferenceWorkload.OPTIMIZER, Map.of("parameters", "1048576"), TENTH_OF_A_SECOND,
                List.of(), none).datasheetSeconds());

        ValidationMachines given = ValidationMachines.of(file, "50GB/s", null);
        assertEquals(50e9, given.datasheetBandwidth());
        ValidationReport.Row row = Validation.row(ReferenceWorkload.OPTIMIZER, Map.of("parameters", "1048576"),
                TENTH_OF_A_SECOND, List.of(), given);
        assertTrue(row.datasheetSeconds() > row.predictedSeconds(), "50 GB/s is below the measured ceilings");
    }

    @Test
    void shouldRefuseBeforeRunningAProfileThatNeverMeasuredWhatTheWorkloadsNeed() throws Exception {
        Profile example = ProfileJson.read(TestProfiles.example());
        membound.profile.Device cpu = example.device("cpu").orElseThrow();
        // As the calibrator's rule stores a profile without a GEMM: the FMA peak, and a GEMM at a fraction of it.
        List<membound.profile.ComputeEntry> fmaOnly = cpu.compute().stream()
                .filter(c -> c.kind() != membound.profile.ComputeEntry.Kind.GEMM).toList();
        List<membound.profile.FlopCeiling> ceilings = new java.util.ArrayList<>();
        for (membound.profile.ComputeEntry fma : fmaOnly) {
            ceilings.add(membound.profile.FlopCeiling.of(fma));
            ceilings.add(membound.profile.FlopCeiling.fractionOf(fma, membound.profile.ComputeEntry.Kind.GEMM, 0.514,
                    "no GEMM measured: 0.514 x the measured FMA peak"));
        }
        Profile noGemm = example.withDevice(cpu.withComputeCeilings(ceilings).withCompute(fmaOnly));
        Path file = dir.resolve("no-gemm.json");
        Files.write(file, ProfileJson.toBytes(noGemm));
        ValidationMachines machines = ValidationMachines.of(file, null, null);

        machines.requireCeilingsFor(List.of(ReferenceWorkload.OPTIMIZER, ReferenceWorkload.TENANTS));
        BadInputException e = assertThrows(BadInputException.class,
                () -> machines.requireCeilingsFor(List.of(ReferenceWorkload.values())));
        assertEquals("profile must have measured what the workloads are predicted from: mlp needs a measured fp32 "
                + "GEMM, transformer needs a measured fp32 GEMM (file=" + file + "); run 'membound calibrate --quick' "
                + "(about a minute) and validate again, or leave them out with --workloads", e.getMessage());
    }

    @Test
    void shouldRejectABadBandwidthAndUnknownWorkloadsByName() {
        BadInputException bandwidth = assertThrows(BadInputException.class,
                () -> ValidationMachines.of(TestProfiles.example(), "fast", null));
        assertTrue(bandwidth.getMessage().contains("--nominal-bandwidth"), bandwidth.getMessage());
        BadInputException workload = assertThrows(BadInputException.class, () -> ReferenceWorkload.parse("mlp,gpt"));
        assertEquals("--workloads must list adamw, mlp, transformer, adamw-2-tenants: --workloads=gpt",
                workload.getMessage());
    }

    @Test
    void shouldWriteTheReportAsJsonWithUnitsInItsKeys() throws Exception {
        ValidationMachines profile = ValidationMachines.of(TestProfiles.example(), null, null);
        ValidationReport.Row row = Validation.row(ReferenceWorkload.OPTIMIZER, Map.of("parameters", "1048576"),
                TENTH_OF_A_SECOND, List.of(), profile);
        ValidationReport report = new ValidationReport("host", "cpu", 2, "2026-01-01T00:00:00Z", "p.json",
                "2025-12-31T00:00:00Z", 273e9, "datasheet", List.of(row), 0.5, 0.7, 0.1, "settings", "membound validate",
                null, List.of());

        JsonNode json = new ObjectMapper().readTree(ReportFormat.json(report));

        JsonNode first = json.path("workloads").path(0);
        assertEquals("adamw", first.path("id").asText());
        assertEquals(0.1, first.path("measuredStepSeconds").path("median").asDouble());
        assertEquals(row.error(), first.path("error").asDouble(), 1e-12);
        assertEquals(3, first.path("operations").size());
        assertTrue(ReportFormat.text(report).contains("AdamW step"), ReportFormat.text(report));
        assertEquals(0.1, json.path("otherCpus").asDouble());
        assertTrue(ReportFormat.text(report).contains("other processes: 0.10 of 2 cpus"), ReportFormat.text(report));
    }

    /** Every workload at a size that runs in a fraction of a second. */
    static SuiteRequest tiny(ReferenceWorkload workload) {
        SuiteRequest request = workload.request();
        return switch (workload) {
            case OPTIMIZER -> request.with("parameters", "100000");
            case MLP -> request.with("widths", "64,96,32").with("batch", "32");
            case TRANSFORMER -> request.with("shape", "64,32,2,64,16,2");
            case TENANTS -> request.with("parameters", "100000");
        };
    }
}
