package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import membound.calibrator.store.ProfileStore;
import membound.vocabulary.BadInputException;

/** A calibration request is built one named setting at a time; what is not set has the command line's default. */
class CalibrationRequestTest {

    private static final ProfileStore STORE = new ProfileStore(Path.of("/nonexistent/profiles"));

    @Test
    void shouldHaveTheCommandLinesDefaultsForWhatIsNotSet() {
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.QUICK, STORE).build();
        assertEquals(CalibrationMode.QUICK, request.mode());
        assertEquals(Optional.empty(), request.platform());
        assertEquals(Optional.empty(), request.nominalBandwidth());
        assertEquals(Optional.empty(), request.jvm());
        assertTrue(request.hugePages());
        assertFalse(request.pin());
        assertTrue(request.coreTypes());
        assertEquals(0, request.tenants());
        assertEquals(GpuPolicy.AUTO, request.gpu());
    }

    @Test
    void shouldKeepEachSettingUnderItsOwnName() {
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.SMOKE, STORE).pin(true).coreTypes(false)
                .platform("dgx-spark").nominalBandwidth("273GB/s").jvm("/opt/java").tenants(3).gpu(GpuPolicy.OFF)
                .hugePages(false).commandLine("membound calibrate --smoke").memboundVersion("1.0").build();
        assertTrue(request.pin());
        assertFalse(request.coreTypes());
        assertEquals(Optional.of("dgx-spark"), request.platform());
        assertEquals(Optional.of("273GB/s"), request.nominalBandwidth());
        assertEquals(Optional.of("/opt/java"), request.jvm());
        assertEquals(3, request.tenants());
        assertEquals(GpuPolicy.OFF, request.gpu());
        assertFalse(request.hugePages());
        assertEquals("membound calibrate --smoke", request.commandLine());
        assertEquals("1.0", request.memboundVersion());
    }

    @Test
    void shouldRefuseANegativeTenantsCountAsInputAndAMissingModeAsABug() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> Calibrator.Request.builder(CalibrationMode.QUICK, STORE).tenants(-1));
        assertEquals("tenants must be 0 (none) or more: tenants=-1", e.getMessage());
        assertThrows(NullPointerException.class, () -> Calibrator.Request.builder(null, STORE));
        assertThrows(NullPointerException.class, () -> Calibrator.Request.builder(CalibrationMode.QUICK, null));
        assertThrows(NullPointerException.class,
                () -> Calibrator.Request.builder(CalibrationMode.QUICK, STORE).gpu(null));
    }
}
