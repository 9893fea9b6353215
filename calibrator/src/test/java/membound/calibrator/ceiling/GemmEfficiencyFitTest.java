package membound.calibrator.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.profile.ComputeEntry;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.Precision;

/**
 * Refits {@link ComputeCeilingRule#GEMM_FRACTION_OF_FMA_PEAK} from its rows and checks it on the rows held out from the fit;
 * each row is checked against the profile it was read from, where that profile is in the repository.
 */
class GemmEfficiencyFitTest {

    private static final Path ROWS = Path.of("src", "test", "resources", "gemm-vs-fma.csv");
    /** The development machine's profiles the rows were read from, kept with the docs that cite them. */
    private static final Path PROFILES = Path.of("..", "docs", "records", "profiles");

    record Row(String profile, String device, Precision precision, int n, int threads, double gemm, double fma,
               boolean fit) {
        double ratio() {
            return gemm / fma;
        }
    }

    @Test
    void shouldBeTheMedianOfTheFitRowsAndPredictTheHeldOutOnesFarBetterThanTheBarePeak() throws IOException {
        List<Row> rows = rows();
        List<Double> fit = rows.stream().filter(Row::fit).map(Row::ratio).toList();
        List<Row> heldOut = rows.stream().filter(r -> !r.fit()).toList();
        assertEquals(29, fit.size());
        assertEquals(14, heldOut.size());
        assertEquals(median(fit), ComputeCeilingRule.GEMM_FRACTION_OF_FMA_PEAK, 5e-4, "refit the constant and its documentation");

        List<Double> derated = new ArrayList<>();
        List<Double> bare = new ArrayList<>();
        for (Row r : heldOut) {
            derated.add(Math.abs(ComputeCeilingRule.GEMM_FRACTION_OF_FMA_PEAK * r.fma() / r.gemm() - 1));
            bare.add(Math.abs(r.fma() / r.gemm() - 1));
        }
        System.out.printf("GEMM from FMA peak, %d held-out rows: median |error| %.1f%% derated by %.3f, %.1f%% bare%n",
                heldOut.size(), 100 * median(derated), ComputeCeilingRule.GEMM_FRACTION_OF_FMA_PEAK, 100 * median(bare));
        assertEquals(0.060, median(derated), 0.0005, "the held-out error the documentation states");
        assertTrue(median(derated) < median(bare) / 10, "the derating must beat taking the FMA peak as a GEMM rate");
    }

    @Test
    void shouldReadEachRowFromItsProfile() throws IOException {
        int checked = 0;
        for (Row r : rows()) {
            Path file = PROFILES.resolve(r.profile());
            if (!Files.exists(file)) {
                continue;
            }
            Profile profile = ProfileJson.read(file);
            membound.profile.Device device = profile.device(r.device()).orElseThrow();
            assertEquals(r.gemm(), typical(device, ComputeEntry.Kind.GEMM, r), r.gemm() * 1e-6, r.toString());
            assertEquals(r.fma(), typical(device, ComputeEntry.Kind.FMA_PEAK, r), r.fma() * 1e-6, r.toString());
            checked++;
        }
        assertTrue(checked > 0, "no row's profile found under " + PROFILES.toAbsolutePath());
    }

    private static double typical(membound.profile.Device device, ComputeEntry.Kind kind, Row r) {
        return device.compute().stream()
                .filter(c -> c.kind() == kind && c.precision() == r.precision() && java.util.Objects.equals(c.threads(), r.threads())
                        && (kind != ComputeEntry.Kind.GEMM || c.matrixSize() == r.n()))
                .findFirst().orElseThrow().flopsPerSecond().typical();
    }

    private static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(ROWS);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            rows.add(new Row(f[0], f[1], Precision.parse(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                    Double.parseDouble(f[5]), Double.parseDouble(f[6]), f[7].equals("fit")));
        }
        return rows;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
