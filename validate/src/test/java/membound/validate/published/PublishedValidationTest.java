package membound.validate.published;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import membound.validate.published.PublishedRow.Kind;
import membound.validate.published.PublishedValidation.Result;
import membound.validate.published.PublishedValidation.RowResult;

class PublishedValidationTest {

    @Test
    void printsTheTable() {
        Result r = PublishedValidation.run(PublishedSet.load());
        System.out.print(PublishedReport.text(r));
        assertFalse(r.rows().isEmpty());
    }
}
