package membound.benchmarks.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;

/**
 * The vector width the kernels really run with, printed so a CI log shows it (the emulated aarch64 run must see
 * the 128-bit vectors of a DGX Spark's SVE2, not qemu's default 512), and checked against
 * {@code -Dmembound.expectVectorBits} where the caller knows what it should be.
 */
class VectorSpeciesTest {

    @Test
    void shouldRunTheKernelsWithThePreferredSpeciesOfThisJvm() {
        System.out.println("Vector API on " + System.getProperty("os.arch") + " (" + System.getProperty("java.vm.version")
                + "): DoubleVector.SPECIES_PREFERRED=" + DoubleVector.SPECIES_PREFERRED
                + ", FloatVector.SPECIES_PREFERRED=" + FloatVector.SPECIES_PREFERRED);

        assertEquals(DoubleVector.SPECIES_PREFERRED, DoubleVectorKernels.SPECIES);
        assertEquals(FloatVector.SPECIES_PREFERRED, FloatVectorKernels.SPECIES);
        assertTrue(DoubleVectorKernels.SPECIES.length() >= 2, "a preferred species has at least 2 doubles");
        String expected = System.getProperty("membound.expectVectorBits", "");
        if (!expected.isBlank()) {
            assertEquals(Integer.parseInt(expected.trim()), DoubleVector.SPECIES_PREFERRED.vectorBitSize(),
                    "DoubleVector.SPECIES_PREFERRED bits on " + System.getProperty("os.arch"));
        }
    }
}
