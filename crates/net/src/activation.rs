//! The activations that follow the network's convolutions: ReLU after the stem, SELU in
//! the residual blocks, none after the head.

/// SELU's scale and α (Klambauer et al.), as PyTorch defines them.
const SELU_SCALE: f32 = 1.050_701;
const SELU_ALPHA: f32 = 1.673_263_2;

/// What follows a convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Activation {
    /// None: the head's logits.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// SELU, as PyTorch computes it.
    Selu,
}

impl Activation {
    /// The activation over a buffer.
    pub(super) fn apply_in_place(self, xs: &mut [f32]) {
        match self {
            Activation::Identity => {}
            Activation::Relu => xs.iter_mut().for_each(|x| *x = relu(*x)),
            Activation::Selu => xs.iter_mut().for_each(|x| *x = selu(*x)),
        }
    }
}

/// `max(x, 0)`.
#[inline(always)]
pub(super) fn relu(x: f32) -> f32 {
    x.max(0.0)
}

/// SELU, without branches so that the compiler vectorises it over a buffer (a libm
/// `expm1` call per element took a third of the forward pass).
#[inline(always)]
pub(super) fn selu(v: f32) -> f32 {
    let negative = SELU_ALPHA * (exp_non_positive(v.min(0.0)) - 1.0);
    SELU_SCALE * if v > 0.0 { v } else { negative }
}

/// `e^x` for `x ≤ 0`: Cody–Waite range reduction and a degree-6 polynomial (relative
/// error about 1e-7), 0 below −87.
#[inline(always)]
fn exp_non_positive(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Adding and subtracting 1.5 × 2^23 rounds to an integer.
    const ROUND: f32 = 12_582_912.0;
    let x = x.max(-87.0);
    let rounded = x * std::f32::consts::LOG2_E + ROUND;
    let n = rounded - ROUND;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    // n is an integer in [-126, 0]: 2^n as a float's exponent bits. `rounded` and ROUND
    // share their exponent, so n is the difference of their bits (an integer subtraction
    // that vectorises, where `n as i32`, a saturating conversion, does not).
    let n_bits = rounded.to_bits().wrapping_sub(ROUND.to_bits());
    let scale = f32::from_bits(n_bits.wrapping_add(127) << 23);
    p * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_exponential_matches_the_library_one() {
        for i in 0..=20_000 {
            let x = -(i as f32) * 0.005;
            let (ours, libm) = (exp_non_positive(x), x.exp());
            assert!(
                (ours - libm).abs() <= 1e-6 * libm + 1e-37,
                "{x}: {ours} vs {libm}"
            );
        }
        assert_eq!(exp_non_positive(-200.0), exp_non_positive(-87.0));
    }

    #[test]
    fn selu_is_pytorchs() {
        let mut xs = [-3.0f32, -0.5, 0.0, 0.25, 2.0];
        Activation::Selu.apply_in_place(&mut xs);
        // torch.nn.functional.selu(torch.tensor([-3, -0.5, 0, 0.25, 2.0]))
        let torch = [-1.670_568_7f32, -0.691_758_16, 0.0, 0.262_675_26, 2.101_402];
        for (a, b) in xs.iter().zip(torch) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }
}
