package membound.benchmarks.training;

import membound.vocabulary.BadInputException;

/**
 * AdamW's hyperparameters and the gradient-norm clipping threshold. {@link #DEFAULTS} are PyTorch's
 * ({@code betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01}) with a learning rate and a clipping threshold of
 * the kind small models train with; the time of a step does not depend on them.
 */
public record AdamWSettings(float learningRate, float beta1, float beta2, float epsilon, float weightDecay,
        float maxGradientNorm) {

    public static final AdamWSettings DEFAULTS = new AdamWSettings(1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 1.0f);

    public AdamWSettings {
        positive("learningRate", learningRate);
        positive("epsilon", epsilon);
        positive("maxGradientNorm", maxGradientNorm);
        if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1)) {
            throw new BadInputException("betas must be in [0, 1): beta1=" + beta1 + ", beta2=" + beta2);
        }
        if (!(weightDecay >= 0) || learningRate * weightDecay >= 1) {
            throw new BadInputException("weightDecay must be >= 0 with learningRate·weightDecay < 1: weightDecay="
                    + weightDecay);
        }
    }

    /** These settings with another learning rate. */
    public AdamWSettings withLearningRate(float value) {
        return new AdamWSettings(value, beta1, beta2, epsilon, weightDecay, maxGradientNorm);
    }

    private static void positive(String name, float value) {
        if (!(value > 0) || Float.isInfinite(value)) {
            throw new BadInputException(name + " must be a positive finite number: " + name + "=" + value);
        }
    }
}
