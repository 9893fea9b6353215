package membound.benchmarks.training;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import membound.vocabulary.BadInputException;

/**
 * The three passes of an optimizer step over FP32 parameters, as PyTorch runs them with
 * {@code clip_grad_norm_}, a fused AdamW and {@code zero_grad}: the sum of squared gradients (for the global
 * norm clipping scales by), the AdamW update (Loshchilov and Hutter 2019, bias-corrected moments, decoupled
 * weight decay) with the clip scale folded in, and zeroing the gradients for the next step.
 *
 * <p>Bytes per parameter (what the code reads and writes): the norm reads the gradient (4); the update reads
 * parameter, gradient and both moments and writes parameter and moments (16 + 12); zeroing writes the
 * gradient (4). 36 bytes for about 15 FLOPs: bandwidth-bound on every machine.
 *
 * <p>Vector API canonical loops with scalar twins. The update uses no {@code fma} and the same order of
 * operations as its twin, so the two agree bit for bit; the sum of squares adds {@link #REDUCTION_BLOCK}
 * elements in float lanes and carries block totals in a double, so it agrees to rounding.
 */
public final class AdamW {

    static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    /** Elements summed in float lanes before the partial sum moves into a double. */
    static final int REDUCTION_BLOCK = 4096;

    /**
     * The scalars of one update, computed once per step: the clip scale, the moments' decay, PyTorch's step
     * size {@code lr / (1 - β1^t)}, {@code 1 / sqrt(1 - β2^t)} and the weight-decay factor {@code 1 - lr·λ}.
     */
    public record Update(float clipScale, float beta1, float oneMinusBeta1, float beta2, float oneMinusBeta2,
            float stepSize, float inverseSqrtCorrection2, float epsilon, float decayFactor) {

        /** The update of step {@code step} (1 for the first) with global gradient norm {@code gradientNorm}. */
        public static Update of(AdamWSettings settings, long step, double gradientNorm) {
            if (step < 1) {
                throw new BadInputException("step must be at least 1: step=" + step);
            }
            double correction1 = 1 - Math.pow(settings.beta1(), step);
            double correction2 = 1 - Math.pow(settings.beta2(), step);
            // torch.nn.utils.clip_grad_norm_: scale = max_norm / (norm + 1e-6), applied only when below 1.
            double clip = Math.min(1.0, settings.maxGradientNorm() / (gradientNorm + 1e-6));
            return new Update((float) clip, settings.beta1(), 1 - settings.beta1(), settings.beta2(),
                    1 - settings.beta2(), (float) (settings.learningRate() / correction1),
                    (float) (1 / Math.sqrt(correction2)), settings.epsilon(),
                    1 - settings.learningRate() * settings.weightDecay());
        }
    }

    private AdamW() {
    }

    /** Sum of {@code g[i]²} over {@code [from, to)}. */
    public static double sumOfSquares(float[] g, int from, int to) {
        double total = 0;
        for (int block = from; block < to; block += REDUCTION_BLOCK) {
            int end = Math.min(block + REDUCTION_BLOCK, to);
            int upperBound = block + SPECIES.loopBound(end - block);
            FloatVector sum = FloatVector.zero(SPECIES);
            int i = block;
            for (; i < upperBound; i += SPECIES.length()) {
                FloatVector vg = FloatVector.fromArray(SPECIES, g, i);
                sum = vg.fma(vg, sum);
            }
            float tail = 0;
            for (; i < end; i++) {
                tail += g[i] * g[i];
            }
            total += sum.reduceLanes(VectorOperators.ADD) + tail;
        }
        return total;
    }

    /** Scalar twin of {@link #sumOfSquares}. */
    public static double sumOfSquaresScalar(float[] g, int from, int to) {
        double total = 0;
        for (int i = from; i < to; i++) {
            total += (double) g[i] * g[i];
        }
        return total;
    }

    /**
     * One AdamW update of {@code [from, to)}: {@code g ← clip·g}, {@code m ← β1·m + (1−β1)·g},
     * {@code v ← β2·v + (1−β2)·g²}, {@code p ← (1−lr·λ)·p − stepSize·m / (sqrt(v)/sqrt(1−β2^t) + ε)}.
     */
    public static void update(float[] p, float[] g, float[] m, float[] v, int from, int to, Update u) {
        int upperBound = from + SPECIES.loopBound(to - from);
        int i = from;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vg = FloatVector.fromArray(SPECIES, g, i).mul(u.clipScale());
            FloatVector vm = FloatVector.fromArray(SPECIES, m, i).mul(u.beta1()).add(vg.mul(u.oneMinusBeta1()));
            FloatVector vv = FloatVector.fromArray(SPECIES, v, i).mul(u.beta2())
                    .add(vg.mul(u.oneMinusBeta2()).mul(vg));
            FloatVector denominator = vv.sqrt().mul(u.inverseSqrtCorrection2()).add(u.epsilon());
            FloatVector vp = FloatVector.fromArray(SPECIES, p, i).mul(u.decayFactor())
                    .sub(vm.mul(u.stepSize()).div(denominator));
            vm.intoArray(m, i);
            vv.intoArray(v, i);
            vp.intoArray(p, i);
        }
        for (; i < to; i++) {
            updateOne(p, g, m, v, i, u);
        }
    }

    /** Scalar twin of {@link #update}: the same operations in the same order. */
    public static void updateScalar(float[] p, float[] g, float[] m, float[] v, int from, int to, Update u) {
        for (int i = from; i < to; i++) {
            updateOne(p, g, m, v, i, u);
        }
    }

    private static void updateOne(float[] p, float[] g, float[] m, float[] v, int i, Update u) {
        float gi = g[i] * u.clipScale();
        float mi = m[i] * u.beta1() + gi * u.oneMinusBeta1();
        float vi = v[i] * u.beta2() + (gi * u.oneMinusBeta2()) * gi;
        float denominator = (float) Math.sqrt(vi) * u.inverseSqrtCorrection2() + u.epsilon();
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i] * u.decayFactor() - (mi * u.stepSize()) / denominator;
    }

    /** {@code g[from, to) ← 0}. */
    public static void zero(float[] g, int from, int to) {
        int upperBound = from + SPECIES.loopBound(to - from);
        FloatVector zero = FloatVector.zero(SPECIES);
        int i = from;
        for (; i < upperBound; i += SPECIES.length()) {
            zero.intoArray(g, i);
        }
        for (; i < to; i++) {
            g[i] = 0f;
        }
    }

    /** Scalar twin of {@link #zero}. */
    public static void zeroScalar(float[] g, int from, int to) {
        for (int i = from; i < to; i++) {
            g[i] = 0f;
        }
    }
}
