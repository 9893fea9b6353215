package membound.benchmarks.compute;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The elementwise and row-wise operations of a training step, one row (or run of elements) per call, each
 * with its scalar twin ({@code ...Scalar}): activations and their gradients, RMSNorm, residual adds, a causal
 * softmax over attention scores, softmax cross-entropy. Callers split rows over threads.
 *
 * <p>Vector API canonical loops (species in a constant, {@code loopBound}, scalar tail; the loops that call
 * {@code exp} end in one masked vector instead, see {@link #causalSoftmax}). Where a vector
 * lane computes exactly what the scalar twin does (adds, multiplies, max, compares) the two agree bit for
 * bit; reductions add lanes in another order, and {@code exp} and {@code tanh} come from the platform's
 * vector math library rather than {@link Math}, so those agree to a few ulps.
 */
public final class Elementwise {

    /** The vector shape of every pass; the training workloads size their tiles by it. */
    public static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    /** sqrt(2/π), of the tanh approximation of GELU (Hendrycks and Gimpel 2016), as GPT-2 uses it. */
    static final float GELU_C = 0.7978845608f;
    static final float GELU_A = 0.044715f;

    private Elementwise() {
    }

    // ---- ReLU ----

    /** {@code a = max(z, 0)} over {@code n} elements. */
    public static void relu(float[] z, int zOffset, float[] a, int aOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, z, zOffset + i).max(0f).intoArray(a, aOffset + i);
        }
        for (; i < n; i++) {
            a[aOffset + i] = Math.max(z[zOffset + i], 0f);
        }
    }

    public static void reluScalar(float[] z, int zOffset, float[] a, int aOffset, int n) {
        for (int i = 0; i < n; i++) {
            a[aOffset + i] = Math.max(z[zOffset + i], 0f);
        }
    }

    /** {@code dz = a > 0 ? da : 0}: the gradient through ReLU, read from its output. */
    public static void reluBackward(float[] da, int daOffset, float[] a, int aOffset, float[] dz, int dzOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        FloatVector zero = FloatVector.zero(SPECIES);
        for (; i < upperBound; i += SPECIES.length()) {
            VectorMask<Float> active = FloatVector.fromArray(SPECIES, a, aOffset + i).compare(VectorOperators.GT, 0f);
            zero.blend(FloatVector.fromArray(SPECIES, da, daOffset + i), active).intoArray(dz, dzOffset + i);
        }
        for (; i < n; i++) {
            dz[dzOffset + i] = a[aOffset + i] > 0f ? da[daOffset + i] : 0f;
        }
    }

    public static void reluBackwardScalar(float[] da, int daOffset, float[] a, int aOffset, float[] dz, int dzOffset,
            int n) {
        for (int i = 0; i < n; i++) {
            dz[dzOffset + i] = a[aOffset + i] > 0f ? da[daOffset + i] : 0f;
        }
    }

    // ---- GELU (tanh approximation) ----

    /** {@code g = ½·u·(1 + tanh(c·(u + a·u³)))}. */
    public static void gelu(float[] u, int uOffset, float[] g, int gOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vu = FloatVector.fromArray(SPECIES, u, uOffset + i);
            FloatVector inner = vu.mul(vu).mul(vu).mul(GELU_A).add(vu).mul(GELU_C);
            FloatVector t = inner.lanewise(VectorOperators.TANH);
            vu.mul(0.5f).mul(t.add(1f)).intoArray(g, gOffset + i);
        }
        for (; i < n; i++) {
            g[gOffset + i] = geluOne(u[uOffset + i]);
        }
    }

    public static void geluScalar(float[] u, int uOffset, float[] g, int gOffset, int n) {
        for (int i = 0; i < n; i++) {
            g[gOffset + i] = geluOne(u[uOffset + i]);
        }
    }

    private static float geluOne(float x) {
        float t = (float) Math.tanh((x * x * x * GELU_A + x) * GELU_C);
        return x * 0.5f * (t + 1f);
    }

    /** {@code du = dg · gelu'(u)}, recomputing the tanh from the saved input. */
    public static void geluBackward(float[] dg, int dgOffset, float[] u, int uOffset, float[] du, int duOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vu = FloatVector.fromArray(SPECIES, u, uOffset + i);
            FloatVector u2 = vu.mul(vu);
            FloatVector t = u2.mul(vu).mul(GELU_A).add(vu).mul(GELU_C).lanewise(VectorOperators.TANH);
            // d/du ½u(1+t) = ½(1+t) + ½u(1−t²)·c(1 + 3a·u²)
            FloatVector slope = u2.mul(3 * GELU_A).add(1f).mul(GELU_C);
            FloatVector derivative = t.add(1f).mul(0.5f)
                    .add(vu.mul(0.5f).mul(t.mul(t).neg().add(1f)).mul(slope));
            FloatVector.fromArray(SPECIES, dg, dgOffset + i).mul(derivative).intoArray(du, duOffset + i);
        }
        for (; i < n; i++) {
            du[duOffset + i] = dg[dgOffset + i] * geluDerivative(u[uOffset + i]);
        }
    }

    public static void geluBackwardScalar(float[] dg, int dgOffset, float[] u, int uOffset, float[] du, int duOffset,
            int n) {
        for (int i = 0; i < n; i++) {
            du[duOffset + i] = dg[dgOffset + i] * geluDerivative(u[uOffset + i]);
        }
    }

    private static float geluDerivative(float x) {
        float x2 = x * x;
        float t = (float) Math.tanh((x2 * x * GELU_A + x) * GELU_C);
        float slope = (x2 * (3 * GELU_A) + 1f) * GELU_C;
        return (t + 1f) * 0.5f + x * 0.5f * (-(t * t) + 1f) * slope;
    }

    // ---- RMSNorm (Zhang and Sennrich 2019) ----

    /**
     * {@code y = x · r · γ} with {@code r = 1 / sqrt(mean(x²) + ε)} over one row of {@code n}; returns r, which
     * the backward pass needs.
     */
    public static float rmsNorm(float[] x, int xOffset, float[] gamma, int gammaOffset, float[] y, int yOffset, int n,
            float epsilon) {
        float r = (float) (1 / Math.sqrt(sumOfSquares(x, xOffset, n) / n + epsilon));
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vx = FloatVector.fromArray(SPECIES, x, xOffset + i);
            vx.mul(r).mul(FloatVector.fromArray(SPECIES, gamma, gammaOffset + i)).intoArray(y, yOffset + i);
        }
        for (; i < n; i++) {
            y[yOffset + i] = x[xOffset + i] * r * gamma[gammaOffset + i];
        }
        return r;
    }

    public static float rmsNormScalar(float[] x, int xOffset, float[] gamma, int gammaOffset, float[] y, int yOffset,
            int n, float epsilon) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (double) x[xOffset + i] * x[xOffset + i];
        }
        float r = (float) (1 / Math.sqrt(sum / n + epsilon));
        for (int i = 0; i < n; i++) {
            y[yOffset + i] = x[xOffset + i] * r * gamma[gammaOffset + i];
        }
        return r;
    }

    /**
     * The gradient through RMSNorm of one row: {@code dx = r·(dx̂ − x̂·mean(dx̂·x̂))} with {@code x̂ = r·x},
     * {@code dx̂ = dy·γ}; adds {@code dy·x̂} into {@code dGamma}.
     */
    public static void rmsNormBackward(float[] dy, int dyOffset, float[] x, int xOffset, float[] gamma, int gammaOffset,
            float r, float[] dx, int dxOffset, float[] dGamma, int dGammaOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        FloatVector dot = FloatVector.zero(SPECIES);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vdy = FloatVector.fromArray(SPECIES, dy, dyOffset + i);
            FloatVector vx = FloatVector.fromArray(SPECIES, x, xOffset + i);
            dot = vdy.mul(FloatVector.fromArray(SPECIES, gamma, gammaOffset + i)).fma(vx, dot);
        }
        double tail = 0;
        for (; i < n; i++) {
            tail += (double) dy[dyOffset + i] * gamma[gammaOffset + i] * x[xOffset + i];
        }
        // mean(dx̂·x̂) = r · mean(dy·γ·x)
        float correction = (float) ((dot.reduceLanes(VectorOperators.ADD) + tail) * r / n);
        float rr = r * r * correction;
        i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vdy = FloatVector.fromArray(SPECIES, dy, dyOffset + i);
            FloatVector vx = FloatVector.fromArray(SPECIES, x, xOffset + i);
            FloatVector vg = FloatVector.fromArray(SPECIES, gamma, gammaOffset + i);
            vdy.mul(vg).mul(r).sub(vx.mul(rr)).intoArray(dx, dxOffset + i);
            FloatVector.fromArray(SPECIES, dGamma, dGammaOffset + i).add(vdy.mul(vx.mul(r)))
                    .intoArray(dGamma, dGammaOffset + i);
        }
        for (; i < n; i++) {
            rmsNormBackwardOne(dy, dyOffset, x, xOffset, gamma, gammaOffset, r, rr, dx, dxOffset, dGamma, dGammaOffset, i);
        }
    }

    public static void rmsNormBackwardScalar(float[] dy, int dyOffset, float[] x, int xOffset, float[] gamma,
            int gammaOffset, float r, float[] dx, int dxOffset, float[] dGamma, int dGammaOffset, int n) {
        double dot = 0;
        for (int i = 0; i < n; i++) {
            dot += (double) dy[dyOffset + i] * gamma[gammaOffset + i] * x[xOffset + i];
        }
        float rr = r * r * (float) (dot * r / n);
        for (int i = 0; i < n; i++) {
            rmsNormBackwardOne(dy, dyOffset, x, xOffset, gamma, gammaOffset, r, rr, dx, dxOffset, dGamma, dGammaOffset, i);
        }
    }

    private static void rmsNormBackwardOne(float[] dy, int dyOffset, float[] x, int xOffset, float[] gamma,
            int gammaOffset, float r, float rr, float[] dx, int dxOffset, float[] dGamma, int dGammaOffset, int i) {
        float vdy = dy[dyOffset + i];
        float vx = x[xOffset + i];
        dx[dxOffset + i] = vdy * gamma[gammaOffset + i] * r - vx * rr;
        dGamma[dGammaOffset + i] = dGamma[dGammaOffset + i] + vdy * (vx * r);
    }

    // ---- adds ----

    /** {@code c = a + b}: a residual add, or two gradient branches joining. */
    public static void add(float[] a, int aOffset, float[] b, int bOffset, float[] c, int cOffset, int n) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, a, aOffset + i).add(FloatVector.fromArray(SPECIES, b, bOffset + i))
                    .intoArray(c, cOffset + i);
        }
        for (; i < n; i++) {
            c[cOffset + i] = a[aOffset + i] + b[bOffset + i];
        }
    }

    public static void addScalar(float[] a, int aOffset, float[] b, int bOffset, float[] c, int cOffset, int n) {
        for (int i = 0; i < n; i++) {
            c[cOffset + i] = a[aOffset + i] + b[bOffset + i];
        }
    }

    // ---- softmax ----

    /**
     * A causal softmax of one row of attention scores, in place: {@code p_j = exp(scale·s_j − max) / Σ} over
     * the first {@code valid} keys, 0 beyond them (the keys a query may not see), so the row can multiply V
     * whole.
     */
    public static void causalSoftmax(float[] s, int offset, int n, int valid, float scale) {
        int upperBound = SPECIES.loopBound(valid);
        FloatVector vmax = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            vmax = vmax.max(FloatVector.fromArray(SPECIES, s, offset + i));
        }
        float max = vmax.reduceLanes(VectorOperators.MAX);
        for (; i < valid; i++) {
            max = Math.max(max, s[offset + i]);
        }
        float shift = max * scale;
        FloatVector vsum = FloatVector.zero(SPECIES);
        for (i = 0; i < upperBound; i += SPECIES.length()) {
            FloatVector e = FloatVector.fromArray(SPECIES, s, offset + i).mul(scale).sub(shift)
                    .lanewise(VectorOperators.EXP);
            vsum = vsum.add(e);
            e.intoArray(s, offset + i);
        }
        if (i < valid) {
            // The tail is one masked vector: a scalar Math.exp costs ~15 ns on JDK 17, as much as a few
            // hundred vector lanes, and every row under a causal mask has a tail.
            VectorMask<Float> inRange = SPECIES.indexInRange(i, valid);
            FloatVector e = FloatVector.fromArray(SPECIES, s, offset + i, inRange).mul(scale).sub(shift)
                    .lanewise(VectorOperators.EXP);
            vsum = vsum.add(e, inRange);
            e.intoArray(s, offset + i, inRange);
        }
        float sum = vsum.reduceLanes(VectorOperators.ADD);
        scaleRow(s, offset, valid, 1f / sum);
        java.util.Arrays.fill(s, offset + valid, offset + n, 0f);
    }

    public static void causalSoftmaxScalar(float[] s, int offset, int n, int valid, float scale) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < valid; i++) {
            max = Math.max(max, s[offset + i]);
        }
        float shift = max * scale;
        float sum = 0;
        for (int i = 0; i < valid; i++) {
            float e = (float) Math.exp(s[offset + i] * scale - shift);
            sum += e;
            s[offset + i] = e;
        }
        float inverse = 1f / sum;
        for (int i = 0; i < valid; i++) {
            s[offset + i] = s[offset + i] * inverse;
        }
        java.util.Arrays.fill(s, offset + valid, offset + n, 0f);
    }

    /** The gradient through a softmax row, in place: {@code dS = scale · p ⊙ (dP − Σ p·dP)}. */
    public static void softmaxBackward(float[] p, int pOffset, float[] dp, int dpOffset, int n, float scale) {
        int upperBound = SPECIES.loopBound(n);
        FloatVector vdot = FloatVector.zero(SPECIES);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            vdot = FloatVector.fromArray(SPECIES, p, pOffset + i).fma(FloatVector.fromArray(SPECIES, dp, dpOffset + i), vdot);
        }
        float dot = vdot.reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            dot += p[pOffset + i] * dp[dpOffset + i];
        }
        i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vp = FloatVector.fromArray(SPECIES, p, pOffset + i);
            FloatVector.fromArray(SPECIES, dp, dpOffset + i).sub(dot).mul(vp).mul(scale).intoArray(dp, dpOffset + i);
        }
        for (; i < n; i++) {
            dp[dpOffset + i] = (dp[dpOffset + i] - dot) * p[pOffset + i] * scale;
        }
    }

    public static void softmaxBackwardScalar(float[] p, int pOffset, float[] dp, int dpOffset, int n, float scale) {
        float dot = 0;
        for (int i = 0; i < n; i++) {
            dot += p[pOffset + i] * dp[dpOffset + i];
        }
        for (int i = 0; i < n; i++) {
            dp[dpOffset + i] = (dp[dpOffset + i] - dot) * p[pOffset + i] * scale;
        }
    }

    /**
     * Softmax cross-entropy of one row of logits against {@code label}: writes the probabilities (the backward
     * pass reads them) and returns {@code −log p_label}.
     */
    public static double softmaxCrossEntropy(float[] logits, int offset, float[] probabilities, int pOffset, int n,
            int label) {
        int upperBound = SPECIES.loopBound(n);
        FloatVector vmax = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            vmax = vmax.max(FloatVector.fromArray(SPECIES, logits, offset + i));
        }
        float max = vmax.reduceLanes(VectorOperators.MAX);
        for (; i < n; i++) {
            max = Math.max(max, logits[offset + i]);
        }
        FloatVector vsum = FloatVector.zero(SPECIES);
        for (i = 0; i < upperBound; i += SPECIES.length()) {
            FloatVector e = FloatVector.fromArray(SPECIES, logits, offset + i).sub(max).lanewise(VectorOperators.EXP);
            vsum = vsum.add(e);
            e.intoArray(probabilities, pOffset + i);
        }
        if (i < n) {
            VectorMask<Float> inRange = SPECIES.indexInRange(i, n);
            FloatVector e = FloatVector.fromArray(SPECIES, logits, offset + i, inRange).sub(max)
                    .lanewise(VectorOperators.EXP);
            vsum = vsum.add(e, inRange);
            e.intoArray(probabilities, pOffset + i, inRange);
        }
        float sum = vsum.reduceLanes(VectorOperators.ADD);
        scaleRow(probabilities, pOffset, n, 1f / sum);
        return Math.log(sum) + max - logits[offset + label];
    }

    public static double softmaxCrossEntropyScalar(float[] logits, int offset, float[] probabilities, int pOffset, int n,
            int label) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, logits[offset + i]);
        }
        float sum = 0;
        for (int i = 0; i < n; i++) {
            float e = (float) Math.exp(logits[offset + i] - max);
            sum += e;
            probabilities[pOffset + i] = e;
        }
        float inverse = 1f / sum;
        for (int i = 0; i < n; i++) {
            probabilities[pOffset + i] = probabilities[pOffset + i] * inverse;
        }
        return Math.log(sum) + max - logits[offset + label];
    }

    /** {@code dLogits = scale · (p − onehot(label))}: the gradient of the mean loss over the batch's rows. */
    public static void crossEntropyBackward(float[] probabilities, int pOffset, float[] dLogits, int dOffset, int n,
            int label, float scale) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, probabilities, pOffset + i).mul(scale).intoArray(dLogits, dOffset + i);
        }
        for (; i < n; i++) {
            dLogits[dOffset + i] = probabilities[pOffset + i] * scale;
        }
        dLogits[dOffset + label] = (probabilities[pOffset + label] - 1f) * scale;
    }

    public static void crossEntropyBackwardScalar(float[] probabilities, int pOffset, float[] dLogits, int dOffset,
            int n, int label, float scale) {
        for (int i = 0; i < n; i++) {
            dLogits[dOffset + i] = probabilities[pOffset + i] * scale;
        }
        dLogits[dOffset + label] = (probabilities[pOffset + label] - 1f) * scale;
    }

    // ---- helpers ----

    private static void scaleRow(float[] a, int offset, int n, float factor) {
        int upperBound = SPECIES.loopBound(n);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, a, offset + i).mul(factor).intoArray(a, offset + i);
        }
        for (; i < n; i++) {
            a[offset + i] = a[offset + i] * factor;
        }
    }

    private static double sumOfSquares(float[] x, int offset, int n) {
        int upperBound = SPECIES.loopBound(n);
        FloatVector sum = FloatVector.zero(SPECIES);
        int i = 0;
        for (; i < upperBound; i += SPECIES.length()) {
            FloatVector vx = FloatVector.fromArray(SPECIES, x, offset + i);
            sum = vx.fma(vx, sum);
        }
        double total = sum.reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            total += (double) x[offset + i] * x[offset + i];
        }
        return total;
    }
}
