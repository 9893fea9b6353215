package membound.benchmarks.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class ComputeCapabilityTest {

    @Test
    void shouldOrderByMajorThenMinorAsNumbers() {
        ComputeCapability volta = new ComputeCapability(7, 0);
        ComputeCapability ada = new ComputeCapability(8, 9);
        ComputeCapability hopper = new ComputeCapability(9, 0);
        ComputeCapability blackwell = new ComputeCapability(10, 0);
        ComputeCapability gb10 = new ComputeCapability(12, 1);
        assertEquals(List.of(volta, ada, hopper, blackwell, gb10),
                Stream.of(gb10, blackwell, volta, hopper, ada).sorted().toList(), "10.0 after 9.0, not before");
        assertTrue(gb10.atLeast(blackwell));
        assertTrue(ada.atLeast(new ComputeCapability(8, 9)));
        assertFalse(hopper.atLeast(blackwell));
        assertEquals("12.1", gb10.toString());
        assertThrows(IllegalArgumentException.class, () -> new ComputeCapability(-1, 0));
    }
}
