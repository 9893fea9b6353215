package membound.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.vocabulary.BadInputException;

/**
 * Nsight Systems exports, built here by the schema NVIDIA documents for {@code nsys export --type sqlite} (no public
 * export small enough to keep was found): the kernel, memcpy, memset and runtime activity tables, StringIds, and
 * NVTX push/pop ranges (eventType 59) marking the steps.
 */
class NsysReaderTest {

    @TempDir
    Path dir;

    static Path fixture(Path file) throws SQLException {
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = db.createStatement()) {
            s.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
            s.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                    + "correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
                    + "shortName INTEGER NOT NULL, mangledName INTEGER, gridX INTEGER, blockX INTEGER)");
            s.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                    + "correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL)");
            s.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    + "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                    + "correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL)");
            s.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                    + "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
                    + "returnValue INTEGER NOT NULL)");
            s.execute("CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
                    + "rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, "
                    + "endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, "
                    + "doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, "
                    + "jsonText TEXT)");
            s.execute("INSERT INTO StringIds VALUES (1, 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn'), "
                    + "(2, 'ampere_bf16_s16816gemm'), (3, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'), "
                    + "(4, 'ncclDevKernel_AllReduce'), (5, 'cudaLaunchKernel'), (6, 'step 2')");
            // Step 1: 0..10 ms; step 2: 10..20 ms (its name through StringIds); a GEMM on stream 7 and an all-reduce
            // on stream 13 overlapping it by 1 ms; the second GEMM is launched in step 1 and runs into step 2.
            s.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId, globalTid) VALUES "
                    + "(0, 10000000, 59, 'ProfilerStep#1', NULL, 100), (10000000, 20000000, 59, NULL, 6, 100), "
                    + "(500, 900, 59, 'forward', NULL, 100), (0, NULL, 34, 'a mark', NULL, 100)");
            s.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 2000, 1, 100, 11, 5, 0), "
                    + "(3000, 4000, 1, 100, 12, 5, 0), (9000000, 9001000, 1, 100, 13, 5, 0), "
                    + "(11000000, 11001000, 1, 100, 14, 5, 0)");
            s.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
                    + "correlationId, demangledName, shortName) VALUES (2000000, 5000000, 0, 1, 7, 11, 1, 2), "
                    + "(4000000, 6000000, 0, 1, 13, 12, 3, 4), (9500000, 12500000, 0, 1, 7, 13, 1, 2)");
            s.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (12000000, 13000000, 0, 1, 7, 14, 1, 1048576, 1)");
        }
        return file;
    }

    @Test
    void readsKernelsCopiesAndNvtxStepsOfAnExport() throws SQLException {
        Path file = fixture(dir.resolve("job.sqlite"));
        RankTrace t = Traces.read(file);
        assertEquals("nsys sqlite", t.format());
        assertEquals(List.of("ProfilerStep#1", "step 2"), t.steps().stream().map(StepRange::name).toList());
        List<StepBreakdown> steps = TraceAnalysis.summarise(t).steps();
        StepBreakdown first = steps.get(0);
        assertEquals(0.006, first.classSeconds().get(TraceClass.GEMM), 1e-12, "3 ms + the 3 ms launched at 9 ms");
        assertEquals(0.002, first.classSeconds().get(TraceClass.COMMUNICATION), 1e-12);
        assertEquals(0.001, first.communicationOverlappedSeconds(), 1e-12);
        assertEquals(0.006, first.streamSeconds().get(7), 1e-12, "the GEMMs' stream");
        assertEquals(0.002, first.streamSeconds().get(13), 1e-12, "NCCL's stream");
        assertEquals(0.0125, first.wallSeconds(), 1e-12, "the step ends when its last kernel does");
        StepBreakdown second = steps.get(1);
        assertEquals(0.001, second.classSeconds().get(TraceClass.MEMCPY), 1e-12);
        assertEquals(0, second.classSeconds().get(TraceClass.GEMM), 0.0);
    }

    @Test
    void aDatabaseWithoutNsightTablesIsNoTrace() throws SQLException {
        Path file = dir.resolve("other.sqlite");
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = db.createStatement()) {
            s.execute("CREATE TABLE t (x INTEGER)");
        }
        BadInputException e = assertThrows(BadInputException.class, () -> Traces.read(file));
        assertTrue(e.getMessage().contains("Nsight Systems SQLite export") && e.getMessage().contains("file="),
                e.getMessage());
    }
}
