package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;

/** What a CPU says of its stores (schema 4): written, read back, checked, and migrated from older profiles. */
class WriteAllocationTest {

    private static final String READ = "sum-double-vector-20t-dram-example";
    private static final String WRITE = "triad-double-vector-20t-dram-example";

    private static Device cpu() {
        return ProfileJson.read(ProfileJsonTest.EXAMPLE).device("cpu").orElseThrow();
    }

    private static Profile withCpu(Device cpu) {
        return ProfileJson.read(ProfileJsonTest.EXAMPLE).withDevice(cpu);
    }

    /** Ids of the example's cpu bandwidth entries, for a decision that names them. */
    private static List<String> ids() {
        return cpu().bandwidth().stream().map(BandwidthEntry::id).toList();
    }

    @Test
    void aMeasuredAnswerWithItsEvidenceAndCountersSurvivesWriteAndRead() {
        List<String> ids = ids();
        WriteAllocation measured = new WriteAllocation(WriteAllocation.Answer.YES, "Sum 100 GB/s, Fill 50 GB/s: 2.0",
                ids.get(0), ids.get(1), 2.0, ids.get(2), 1.1, new WriteAllocation.MemoryCounters("perf stat -a",
                List.of("uncore_imc/cas_count_read/", "uncore_imc/cas_count_write/"), 39e9, 40e9, 2.0,
                "Fill (vector) on 2 GiB, 20 threads"), null);
        Profile profile = withCpu(cpu().withWriteAllocation(measured));

        byte[] written = ProfileJson.toBytes(profile);
        Profile read = ProfileJson.read(written, "w.json");
        assertEquals(profile, read);
        WriteAllocation back = read.device("cpu").orElseThrow().writeAllocation();
        assertEquals(WriteAllocation.Answer.YES, back.answer());
        assertTrue(back.storesAllocate());
        assertEquals(39e9 / 40e9, back.counters().readOverWrite());
        assertTrue(new String(written, java.nio.charset.StandardCharsets.UTF_8).contains("\"answer\": \"yes\""));
    }

    @Test
    void whereStoresDoNotAllocateEveryHardwareByteFigureIsTheStreamOne() {
        // The example counts write-allocate (its copy's hardware figure is 1.5x its STREAM one): a no contradicts it.
        WriteAllocation no = new WriteAllocation(WriteAllocation.Answer.NO, "r", ids().get(0), ids().get(1), 1.0, null,
                null, null, null);
        BadInputException e = assertThrows(BadInputException.class, () -> cpu().withWriteAllocation(no));
        assertTrue(e.getMessage().startsWith("device.bandwidth.hardwareBytesPerSecond must be the STREAM figure where "
                + "the cpu's stores do not allocate (writeAllocation no): bandwidth "), e.getMessage());
    }

    @Test
    void everyAnswerButAMeasuredNoCountsWriteAllocate() {
        for (WriteAllocation.Answer answer : WriteAllocation.Answer.values()) {
            List<String> ids = ids();
            WriteAllocation w = answer == WriteAllocation.Answer.ASSUMED ? WriteAllocation.assumed("nothing measured")
                    : new WriteAllocation(answer, "r", ids.get(0), ids.get(1), 1.5, null, null, null, null);
            assertEquals(answer != WriteAllocation.Answer.NO, w.storesAllocate(), answer::label);
        }
    }

    @Test
    void aProfileOfSchema3ReadsAsAssumedNotMeasuredWithItsFiguresAsTheyWere() throws IOException {
        String text = ProfileJsonTest.example().replace("\"schemaVersion\": 4,", "\"schemaVersion\": 3,");
        int at = text.indexOf(",\n      \"writeAllocation\": {");
        String schema3 = text.substring(0, at) + text.substring(text.indexOf("}", at) + 1);
        assertFalse(schema3.contains("writeAllocation"), "a schema-3 file has no such key");

        Device migrated = ProfileJson.read(schema3, "old.json").device("cpu").orElseThrow();
        assertEquals(WriteAllocation.Answer.ASSUMED, migrated.writeAllocation().answer());
        assertEquals(ProfileMigration.ASSUMED_BEFORE_VERSION_4, migrated.writeAllocation().reason());
        assertTrue(migrated.writeAllocation().describe().startsWith("assumed, not measured: hardware bytes count "
                + "write-allocate"), migrated.writeAllocation().describe());
        assertEquals(cpu().bandwidth(), migrated.bandwidth(), "every hardware-byte figure as it was");
        assertEquals(cpu().levels(), migrated.levels(), "and every ceiling");
        assertNull(ProfileJson.read(schema3, "old.json").device("gpu").orElseThrow().writeAllocation(),
                "a GPU counts no hardware bytes and says nothing");
    }

    @Test
    void aCpuWithHardwareBytesMustSayWhatTheyCount() {
        BadInputException e = assertThrows(BadInputException.class, () -> cpu().withWriteAllocation(null));
        assertTrue(e.getMessage().startsWith("device.writeAllocation must be present on a cpu whose bandwidth "
                + "entries count hardware bytes"), e.getMessage());
    }

    @Test
    void theDecisionNamesEntriesOfItsOwnDeviceAndOnlyACpuHasOne() {
        WriteAllocation unknown = new WriteAllocation(WriteAllocation.Answer.YES, "r", "no-such-entry", ids().get(0),
                2.0, null, null, null, null);
        assertTrue(assertThrows(BadInputException.class, () -> cpu().withWriteAllocation(unknown)).getMessage()
                .startsWith("device.writeAllocation.bandwidthId must be the id of a bandwidth entry of device cpu"));
        Device gpu = ProfileJson.read(ProfileJsonTest.EXAMPLE).device("gpu").orElseThrow();
        assertTrue(assertThrows(BadInputException.class, () -> gpu.withWriteAllocation(WriteAllocation.assumed("x")))
                .getMessage().startsWith("device.writeAllocation must be given for a cpu only"));
    }

    @Test
    void aMeasuredAnswerNeedsItsEvidenceAndAnAssumedOneHasNone() {
        assertThrows(BadInputException.class, () -> new WriteAllocation(WriteAllocation.Answer.YES, "r", null, null,
                null, null, null, null, null));
        assertThrows(BadInputException.class, () -> new WriteAllocation(WriteAllocation.Answer.ASSUMED, "r", READ,
                WRITE, 1.0, null, null, null, null));
        assertThrows(BadInputException.class, () -> new WriteAllocation(WriteAllocation.Answer.UNDETERMINED, "r",
                READ, WRITE, null, null, null, null, null), "a ratio with both entries");
        assertThrows(BadInputException.class, () -> new WriteAllocation(WriteAllocation.Answer.UNDETERMINED, "r",
                READ, WRITE, 1.5, READ, null, null, null), "a team gain with its half team");
    }
}
