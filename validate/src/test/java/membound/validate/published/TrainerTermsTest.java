package membound.validate.published;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import membound.model.trainer.Trainer;
import membound.validate.published.PublishedRow.Kind;
import membound.validate.published.PublishedValidation.KindSummary;
import membound.validate.published.PublishedValidation.Result;
import membound.validate.published.PublishedValidation.Term;

/**
 * The trainer terms predict applies (model's committed trainer-terms.tsv) are the terms validate --published fits:
 * same values and same rows, for every group; a set or fit that changed without scripts/trainer-terms.sh fails here.
 */
class TrainerTermsTest {

    private static final Result RESULT = PublishedValidation.committed();

    @Test
    void shouldCommitTheTermsTheFitFinds() {
        for (String group : Trainer.groups()) {
            for (Trainer.Term committed : Trainer.group(group)) {
                String name = "training." + group + "." + committed.name();
                Term fitted = RESULT.terms().stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
                assertNotNull(fitted, name + " is not fitted: run scripts/trainer-terms.sh");
                assertEquals(fitted.value(), committed.value(), 1e-9 * Math.max(1, Math.abs(fitted.value())),
                        name + ": run scripts/trainer-terms.sh");
                assertEquals(fitted.fittedOn(), committed.fittedOn(), name + ": run scripts/trainer-terms.sh");
            }
        }
    }

    @Test
    void shouldFitTheTypicalTrainerOnEveryTrainersFitRows() {
        List<String> typical = Trainer.group(PublishedValidation.TYPICAL).get(0).fittedOn();
        for (PublishedRow row : PublishedSet.load().rows()) {
            boolean fit = row.kind() == Kind.TRAINING && !row.heldOut() && row.aside() == null;
            assertEquals(fit, typical.contains(row.id()), row.id());
        }
    }

    @Test
    void shouldNotCallATargetMetWithAHeldOutRowPastItsLimit() {
        for (KindSummary s : RESULT.summaries()) {
            if (Double.isFinite(s.limit()) && s.maxPrimary() > s.limit()) {
                assertTrue(!s.met(), s.kind() + " met with " + s.maxRow() + " at " + s.maxPrimary());
            }
        }
    }

    @Test
    void shouldSetTheDgxSparkFineTuningRowsAsideWithTheirReason() {
        // NVIDIA's blog table (l21-l23) implies about twice the GB10's BF16 peak: aside. The Spark rows read from
        // public logs and JSON (l243 on) are judged.
        int judged = 0;
        for (PublishedRow row : PublishedSet.load().rows()) {
            if (row.kind() == Kind.TRAINING && row.hardware().equals("dgx-spark")) {
                if (row.source().contains("how-nvidia-dgx-sparks-performance-enables-intensive-ai-tasks")) {
                    assertNotNull(row.aside(), row.id());
                    assertTrue(row.aside().contains("TFLOP/s"), row.aside());
                } else {
                    assertNull(row.aside(), row.id());
                    judged++;
                }
            }
        }
        assertTrue(judged >= 19, "Spark training rows judged: " + judged);
    }
}
