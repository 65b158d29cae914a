import { LogIn } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

/** Why a page needs a sign-in, and the way there. Its words are English unless a translated page passes its own. */
export function SignInPrompt({
  reason,
  title = "Sign in to continue",
  action = "Sign in / Register",
}: {
  reason: string;
  title?: string;
  action?: string;
}) {
  return (
    <Card data-testid="sign-in-prompt">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription className="text-base">{reason}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          <Link href="/auth">
            <LogIn aria-hidden="true" />
            {action}
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
