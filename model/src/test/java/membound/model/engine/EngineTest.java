package membound.model.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

import membound.model.decode.WeightScheme;
import membound.model.machine.Machines;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

class EngineTest {

    private static final Transformer GPT_OSS = Presets.get("gpt-oss-20b");
    private static final Transformer LLAMA = Presets.get("llama-3.1-8b");

    @Test
    void shouldRunLlamaCppsFp4WeightsInFp4OnBlackwellAndItsOtherQuantizedMatmulsInInt8() {
        var spark = Machines.datasheet("dgx-spark").device();
        Engine.Gemm g = Engine.parse("llama.cpp").gemm(GPT_OSS, WeightScheme.parse("Q8_0,experts=MXFP4"), spark);
        assertEquals("mxfp4", g.family(), "the experts' format picks the row of a mixture of experts");
        assertEquals("cuda-blackwell", g.rule().backend());
        assertEquals(Precision.FP4, g.precision());
        Engine.Gemm dense = Engine.parse("llama.cpp").gemm(LLAMA, WeightScheme.parse("Q4_K_M"), spark);
        assertEquals("gguf", dense.family());
        assertEquals(Precision.INT8, dense.rule().gemm());
        assertEquals(Precision.FP8, dense.precision(), "GB10 has no INT8 ceiling: its FP8 rate");
        assertNotNull(dense.note());
        var h100 = Machines.datasheet("h100-sxm").device();
        assertEquals("cuda", Engine.parse("llama.cpp").gemm(GPT_OSS, WeightScheme.parse("Q8_0,experts=MXFP4"), h100)
                .rule().backend(), "Hopper has no FP4 MMA: the int8 rule");
    }

    @Test
    void shouldRunAFigurePublishedBeforeARuleTookEffectByTheRuleItRan() {
        var spark = Machines.datasheet("dgx-spark").device();
        Engine llamaCpp = Engine.parse("llama.cpp");
        WeightScheme mxfp4 = WeightScheme.parse("Q8_0,experts=MXFP4");
        LocalDate since = llamaCpp.gemm(GPT_OSS, mxfp4, spark).rule().since();
        assertNotNull(since, "native MXFP4 on Blackwell has a day it took effect");
        assertEquals(Precision.FP4, llamaCpp.gemm(GPT_OSS, mxfp4, spark, since).precision(), "in force on its day");
        Engine.Gemm before = llamaCpp.gemm(GPT_OSS, mxfp4, spark, since.minusDays(1));
        assertEquals("cuda", before.rule().backend(), "the day before: the int8 MMQ kernels");
        assertEquals(Precision.FP8, before.precision());
        assertEquals(Precision.FP4, llamaCpp.gemm(GPT_OSS, mxfp4, spark, null).precision(), "no day: today's engine");
    }

    @Test
    void shouldUseTheInt8CeilingWhereTheGpuHasOne() {
        var h100 = Machines.datasheet("h100-sxm").device();
        Engine.Gemm g = Engine.parse("llama.cpp").gemm(LLAMA, WeightScheme.parse("Q4_0"), h100);
        assertEquals(h100.compute().containsKey(Precision.INT8) ? Precision.INT8 : Precision.FP8, g.precision());
        if (h100.compute().containsKey(Precision.INT8)) {
            assertNull(g.note());
        }
    }

    @Test
    void shouldRunNvfp4InFp4AndAwqInFp16() {
        var spark = Machines.datasheet("dgx-spark").device();
        assertEquals(Precision.FP4, Engine.parse("trt-llm").gemm(LLAMA, WeightScheme.parse("nvfp4-modelopt"), spark).precision());
        assertEquals(Precision.FP16, Engine.parse("vllm").gemm(LLAMA, WeightScheme.parse("awq-int4-g128"), spark).precision());
        assertEquals(Precision.FP8, Engine.parse("vllm").gemm(LLAMA, WeightScheme.parse("fp8-block128"), spark).precision(),
                "FP8 with a scale per 128 x 128 block is an FP8 checkpoint");
        assertEquals(Precision.BF16, Engine.parse("pytorch").gemm(LLAMA, WeightScheme.parse("bf16"), spark).precision());
    }

    @Test
    void shouldRefuseAnUnknownEngineOrAFormatWithoutARuleInOneLine() {
        BadInputException unknown = assertThrows(BadInputException.class, () -> Engine.parse("llamacp"));
        assertTrue(unknown.getMessage().startsWith("engine must be one of"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("llama.cpp"), unknown.getMessage());
        var spark = Machines.datasheet("dgx-spark").device();
        BadInputException noRule = assertThrows(BadInputException.class,
                () -> Engine.parse("llama.cpp").gemm(LLAMA, WeightScheme.parse("awq-int4-g128"), spark));
        assertTrue(noRule.getMessage().contains("no rule for int4-grouped weights"), noRule.getMessage());
        assertEquals(1, noRule.getMessage().lines().count());
    }

    @Test
    void shouldNameASourceForEveryRule() {
        for (String id : Engine.ids()) {
            for (Engine.Rule r : Engine.parse(id).rules()) {
                assertTrue(r.source().length() > 20, id + ": " + r);
            }
        }
    }
}
