package membound.vocabulary.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EditDistanceTest {

    @ParameterizedTest
    @CsvSource({"'', '', 0", "abc, '', 3", "'', ab, 2", "gh200, gh200, 0", "dgx-sprak, dgx-spark, 2",
            "llama-3.1-8b, llama-3.1-7b, 1", "kitten, sitting, 3"})
    void shouldCountInsertionsDeletionsAndSubstitutions(String a, String b, int distance) {
        assertEquals(distance, EditDistance.between(a, b));
        assertEquals(distance, EditDistance.between(b, a));
    }
}
