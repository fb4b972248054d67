package dev.restbench.runner.analysis;

/**
 * Welch's t-test and the distribution functions it needs (Student's t via the regularized incomplete beta
 * function, the standard normal via erf). Used to judge candidate change points, as Apache Otava (Hunter) does.
 */
public final class StudentT {

    private StudentT() {
    }

    /** Two-sided p-value of Welch's unequal-variance t-test; 1 when it cannot be computed (fewer than 2 each). */
    public static double welchPValue(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            return 1.0;
        }
        double va = Stats.variance(a) / a.length;
        double vb = Stats.variance(b) / b.length;
        double diff = Math.abs(Stats.mean(a) - Stats.mean(b));
        if (va + vb == 0) {
            // Both segments constant: any difference is certain, no difference is no evidence.
            return diff == 0 ? 1.0 : 0.0;
        }
        double t = diff / Math.sqrt(va + vb);
        double df = (va + vb) * (va + vb)
                / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        return twoSidedP(t, df);
    }

    /** P(|T| >= t) for Student's t with df degrees of freedom. */
    public static double twoSidedP(double t, double df) {
        double x = df / (df + t * t);
        return regularizedIncompleteBeta(x, df / 2, 0.5);
    }

    public static double normalCdf(double z) {
        return 0.5 * (1 + erf(z / Math.sqrt(2)));
    }

    /** Abramowitz-Stegun 7.1.26 is too coarse for small p; use the series/continued fraction of erfc instead. */
    static double erf(double x) {
        if (x < 0) {
            return -erf(-x);
        }
        // erf(x) = P(1/2, x^2), the regularized lower incomplete gamma function.
        return regularizedGammaP(0.5, x * x);
    }

    private static double regularizedGammaP(double a, double x) {
        if (x <= 0) {
            return 0;
        }
        if (x < a + 1) {
            double sum = 1 / a;
            double term = sum;
            for (int n = 1; n < 500; n++) {
                term *= x / (a + n);
                sum += term;
                if (Math.abs(term) < Math.abs(sum) * 1e-15) {
                    break;
                }
            }
            return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
        }
        // Continued fraction for Q(a, x) (modified Lentz).
        double b = x + 1 - a;
        double c = 1 / 1e-300;
        double d = 1 / b;
        double h = d;
        for (int i = 1; i < 500; i++) {
            double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (Math.abs(d) < 1e-300) {
                d = 1e-300;
            }
            c = b + an / c;
            if (Math.abs(c) < 1e-300) {
                c = 1e-300;
            }
            d = 1 / d;
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-15) {
                break;
            }
        }
        return 1 - Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
    }

    /** I_x(a, b), by the continued fraction (modified Lentz), using the symmetry for fast convergence. */
    static double regularizedIncompleteBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b)
                + a * Math.log(x) + b * Math.log(1 - x));
        if (x < (a + 1) / (a + b + 2)) {
            return front * betaContinuedFraction(x, a, b) / a;
        }
        return 1 - front * betaContinuedFraction(1 - x, b, a) / b;
    }

    private static double betaContinuedFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        if (Math.abs(d) < tiny) {
            d = tiny;
        }
        d = 1 / d;
        double h = d;
        for (int m = 1; m < 500; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    /** Lanczos approximation (g = 7, n = 9). */
    static double logGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double[] coefficients = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
                771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
                9.9843695780195716e-6, 1.5056327351493116e-7};
        x -= 1;
        double sum = coefficients[0];
        double t = x + 7.5;
        for (int i = 1; i < 9; i++) {
            sum += coefficients[i] / (x + i);
        }
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
