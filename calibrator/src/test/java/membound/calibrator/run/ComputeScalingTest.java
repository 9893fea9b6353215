package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.profile.ComputeEntry;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.profile.Quality;
import membound.vocabulary.Precision;

class ComputeScalingTest {

    private static ComputeEntry fma(Precision precision, int threads, double flops) {
        return new ComputeEntry("fma-peak-" + precision.name().toLowerCase() + "-" + threads + "t",
                ComputeEntry.Kind.FMA_PEAK, precision, threads, null, null, Distribution.single(flops),
                Provenance.measured("FmaBenchmark", null, Map.of()));
    }

    @Test
    void shouldFlagAnFmaPeakThatTwoThreadsDidNotDouble() {
        // As on the development VM when the host put both vcpus on one core: 108 and 111 GFLOP/s.
        List<Quality.Flag> flags = ProfileBuilder.computeScaling(List.of(fma(Precision.FP32, 1, 108e9),
                fma(Precision.FP32, 2, 111e9), fma(Precision.FP64, 1, 106.8e9), fma(Precision.FP64, 2, 185.7e9)));
        assertEquals(1, flags.size(), flags.toString());
        Quality.Flag flag = flags.get(0);
        assertEquals("compute-not-scaling", flag.code());
        assertEquals("fma-peak-fp32-2t", flag.subject());
        assertTrue(flag.message().startsWith("the FMA peak (fp32) with 2 threads is 1.03x one thread's, below 1.50x"),
                flag.message());
    }

    @Test
    void shouldNotFlagWithoutBothTeamsOrWhenThePeakScaled() {
        assertEquals(List.of(), ProfileBuilder.computeScaling(List.of(fma(Precision.FP32, 2, 111e9))));
        assertEquals(List.of(), ProfileBuilder.computeScaling(List.of(fma(Precision.FP32, 1, 202.6e9),
                fma(Precision.FP32, 2, 405.6e9))));
    }
}
