package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

class HostMappingTest {

    @Test
    void shouldWriteCpusAsTheKernelsRangesInAnyInputOrder() {
        assertEquals("0", HostMapping.cpuList(List.of(0)));
        assertEquals("0-3,9", HostMapping.cpuList(List.of(3, 1, 9, 2, 0)));
        assertEquals("0,2,4", HostMapping.cpuList(List.of(0, 2, 4)));
        assertEquals("5-9,15-19", HostMapping.cpuList(List.of(5, 6, 7, 8, 9, 15, 16, 17, 18, 19)));
    }

    @Test
    void shouldLeaveNoCpusOutOfTheProfile() {
        assertNull(HostMapping.cpuList(List.of()));
    }

    @Test
    void shouldWriteARepeatedCpuOnce() {
        // CpuList's rule; HostMapping's own copy used to write "1,1-2" here.
        assertEquals("1-2", HostMapping.cpuList(List.of(1, 1, 2)));
    }
}
