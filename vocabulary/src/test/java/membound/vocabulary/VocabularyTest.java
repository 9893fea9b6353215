package membound.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every word of the vocabulary has one label that reads back to it, and bad names are one-line errors. */
class VocabularyTest {

    static Stream<Class<? extends Labelled>> words() {
        return Stream.of(Precision.class, DeviceKind.class, LinkKind.class, MemoryLevel.class, AccessPattern.class,
                RowOperation.class, ProductShape.Layout.class);
    }

    @ParameterizedTest
    @MethodSource("words")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void shouldReadEveryLabelBackToItsConstant(Class<? extends Labelled> type) {
        Set<String> seen = new HashSet<>();
        for (Labelled word : type.getEnumConstants()) {
            assertTrue(seen.add(word.label()), "labels must be unique: " + word.label());
            assertEquals(word, Labelled.parse((Class) type, "word", word.label()));
            assertEquals(word.label(), word.toString(), "printed as its label");
        }
        BadInputException e = assertThrows(BadInputException.class, () -> Labelled.parse((Class) type, "word", "nosuch"));
        assertTrue(e.getMessage().startsWith("word must be one of ") && e.getMessage().endsWith(": word=nosuch"),
                e.getMessage());
    }

    @Test
    void shouldParsePrecisionsAsUsersTypeThemAndListThemOnError() {
        assertEquals(Precision.BF16, Precision.parse("bf16"));
        assertEquals(Precision.FP32, Precision.parse(" Float32 "));
        BadInputException e = assertThrows(BadInputException.class, () -> Precision.parse("fp12"));
        assertTrue(e.getMessage().contains("[fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8, int4, mxfp8, nvfp4]: precision=fp12"),
                e.getMessage());
    }

    @Test
    void shouldTakeOnlyTrainingFormatsForATrainingSetupAndSuggestTheNearest() {
        assertEquals(Precision.FP8, Precision.parseTraining("--precision", "FP8"));
        BadInputException e = assertThrows(BadInputException.class, () -> Precision.parseTraining("--precision", "fp64"));
        assertEquals("--precision must be one of fp32, bf16, fp16, fp8, fp4, mxfp8, nvfp4: --precision=fp64 (did you mean fp4?)",
                e.getMessage());
    }

    @Test
    void shouldRunBlockScaledFormatsAtTheirElementFormatsRateAndCountTheirScales() {
        assertEquals(Precision.FP8, Precision.MXFP8.wider());
        assertEquals(Precision.FP4, Precision.NVFP4.wider());
        assertEquals(8.25 / 8, Precision.MXFP8.bytesPerElement(), 1e-12, "one E8M0 scale per 32 values");
        assertEquals(4.5 / 8, Precision.NVFP4.bytesPerElement(), 1e-12, "one E4M3 scale per 16 values");
        assertEquals(Precision.NVFP4, Precision.parseTraining("--precision", "NVFP4"));
    }

    @Test
    void shouldFallBackToWiderFormatsUntilFp32() {
        List<Precision> chain = new java.util.ArrayList<>();
        for (Precision p = Precision.FP4; p != null; p = p.wider()) {
            chain.add(p);
        }
        assertEquals(List.of(Precision.FP4, Precision.FP8, Precision.BF16, Precision.FP32), chain);
        assertNull(Precision.FP64.wider());
        assertEquals(0.5, Precision.FP4.bytesPerElement());
    }

    @Test
    void shouldParseAndPrintProductShapes() {
        ProductShape batch = ProductShape.parse("16x256x256x64:nt");
        assertEquals(new ProductShape(16, 256, 256, 64, ProductShape.Layout.NT), batch);
        assertEquals("16x256x256x64:nt", batch.toString());
        assertEquals("256x1024x1024:tn", ProductShape.parse(" 256x1024x1024:TN ").toString());
        assertEquals(2.0 * 16 * 256 * 256 * 64, batch.flops());
        assertEquals(2, ProductShape.parseList("1024x1024x1024:nn+256x1024x1024:tn").size());
        for (String bad : new String[] {"1024x1024:nn", "1024x1024x1024", "1024x1024x1024:nx", "ax1x1:nn", "0x1x1:nn"}) {
            BadInputException e = assertThrows(BadInputException.class, () -> ProductShape.parse(bad), bad);
            assertTrue(e.getMessage().contains("=") && !e.getMessage().contains("\n"), e.getMessage());
        }
        BadInputException repeat = assertThrows(BadInputException.class,
                () -> ProductShape.parseList("8x8x8:nn+8x8x8:nn"));
        assertTrue(repeat.getMessage().startsWith("products must not repeat a shape"), repeat.getMessage());
    }

    @Test
    void shouldKeepABadInputMessageOnOneLineWhateverTheValueHolds() {
        assertEquals("field=a\\nb\\r\\tc\\u0085d\\u2028e\\u0000f",
                new BadInputException("field=a\nb\r\tc\u0085d\u2028e\u0000f").getMessage());
        String plain = "workingSet must be a size: workingSet=64XB (ünïcödé kept)";
        assertEquals(plain, new BadInputException(plain, new RuntimeException()).getMessage());
        assertNull(new BadInputException(null).getMessage());
    }

    @Test
    void shouldNameRowOperationsAsTheProfileDoes() {
        assertEquals(RowOperation.CROSS_ENTROPY, RowOperation.of(" Cross-Entropy"));
        assertTrue(RowOperation.find("layer-norm").isEmpty());
        BadInputException e = assertThrows(BadInputException.class, () -> RowOperation.of("layer-norm"));
        assertEquals("operation must be one of softmax, cross-entropy, gelu, gelu-backward, rms-norm, "
                + "rms-norm-backward: operation=layer-norm", e.getMessage());
    }
}
