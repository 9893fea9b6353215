package membound.model.training;

import membound.model.workload.Transformer;

/**
 * Trainable parameters of LoRA adapters: r x (in + out) per targeted matrix (A is in x r, B is
 * r x out; Hu et al. 2021), every layer, every expert for expert matrices.
 */
public final class LoraParameters {

    private LoraParameters() {
    }

    public static double count(Transformer tf, FineTuning ft) {
        double r = ft.rank();
        double h = tf.hiddenSize();
        double q = tf.queryDimension();
        double kv = tf.keyValueDimension();
        double f = tf.intermediateSize();
        double experts = tf.experts().experts();
        double perLayer = 0;
        if (ft.targets(LoraTarget.Q)) {
            perLayer += r * (h + q);
        }
        if (ft.targets(LoraTarget.K)) {
            perLayer += r * (h + kv);
        }
        if (ft.targets(LoraTarget.V)) {
            perLayer += r * (h + kv);
        }
        if (ft.targets(LoraTarget.O)) {
            perLayer += r * (q + h);
        }
        if (ft.targets(LoraTarget.GATE) && tf.activation().gated()) {
            perLayer += experts * r * (h + f);
        }
        if (ft.targets(LoraTarget.UP)) {
            perLayer += experts * r * (h + f);
        }
        if (ft.targets(LoraTarget.DOWN)) {
            perLayer += experts * r * (f + h);
        }
        return perLayer * tf.layers();
    }
}
