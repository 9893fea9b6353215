package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;
import membound.vocabulary.RowOperation;

/** A device's elementwise operation rates: written, read back, and left out of a profile that has none. */
class OperationEntryTest {

    static OperationEntry softmax() {
        return new OperationEntry("softmax-2t-row1024", RowOperation.SOFTMAX, 1024, 2, Distribution.single(2.5e9),
                Provenance.measured("ElementwiseBenchmark", null, Map.of()));
    }

    @Test
    void shouldWriteAndReadAnOperationRate() {
        Profile example = ProfileJson.read(ProfileJsonTest.EXAMPLE);
        Device cpu = example.device("cpu").orElseThrow();
        Profile with = example.withDevice(cpu.withOperations(List.of(softmax())));
        String json = new String(ProfileJson.toBytes(with), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"operations\""), "the device lists its operations");
        Profile read = ProfileJson.read(json, "with an operation");
        assertEquals(List.of(softmax()), read.device("cpu").orElseThrow().operations());
        assertEquals(with, read);
    }

    @Test
    void shouldLeaveOutAnEmptyList() {
        String json = new String(ProfileJson.toBytes(ProfileJson.read(ProfileJsonTest.EXAMPLE)), StandardCharsets.UTF_8);
        assertFalse(json.contains("\"operations\""), "a profile without operation rates has no operations key");
    }

    @Test
    void shouldRejectABadEntryNamingTheField() {
        BadInputException rows = assertThrows(BadInputException.class, () -> new OperationEntry("softmax-2t", RowOperation.SOFTMAX,
                0, 2, Distribution.single(1e9), Provenance.measured("ElementwiseBenchmark", null, Map.of())));
        assertTrue(rows.getMessage().startsWith("operations.rowLength must be positive"), rows.getMessage());
        Device cpu = ProfileJson.read(ProfileJsonTest.EXAMPLE).device("cpu").orElseThrow();
        BadInputException twice = assertThrows(BadInputException.class,
                () -> cpu.withOperations(List.of(softmax(), softmax())));
        assertTrue(twice.getMessage().contains("device.operations.id"), twice.getMessage());
    }
}
